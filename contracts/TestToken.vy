# pragma version ~=0.4.3
"""
@title TestToken: the ERC-20 of the local EVM (`evm-local`), deployed by `custody dev`
@notice A plain EIP-20 token with a minter, for development and tests only. Its deployer
        (`custody dev`'s funded development account) mints through the faucet; nobody else can.
        Compiled by scripts/compile_contracts into config/contracts/TestToken.json.
"""

from ethereum.ercs import IERC20

implements: IERC20

event Transfer:
    sender: indexed(address)
    receiver: indexed(address)
    value: uint256

event Approval:
    owner: indexed(address)
    spender: indexed(address)
    value: uint256

name: public(String[64])
symbol: public(String[32])
decimals: public(uint8)
totalSupply: public(uint256)
balanceOf: public(HashMap[address, uint256])
allowance: public(HashMap[address, HashMap[address, uint256]])
minter: public(address)


@deploy
def __init__(_name: String[64], _symbol: String[32], _decimals: uint8):
    self.name = _name
    self.symbol = _symbol
    self.decimals = _decimals
    self.minter = msg.sender


@internal
def _transfer(_from: address, _to: address, _value: uint256):
    assert _to != empty(address), "transfer to the zero address"
    assert self.balanceOf[_from] >= _value, "transfer amount exceeds balance"
    self.balanceOf[_from] -= _value
    self.balanceOf[_to] += _value
    log Transfer(sender=_from, receiver=_to, value=_value)


@external
def transfer(_to: address, _value: uint256) -> bool:
    self._transfer(msg.sender, _to, _value)
    return True


@external
def transferFrom(_from: address, _to: address, _value: uint256) -> bool:
    assert self.allowance[_from][msg.sender] >= _value, "transfer amount exceeds allowance"
    self.allowance[_from][msg.sender] -= _value
    self._transfer(_from, _to, _value)
    return True


@external
def approve(_spender: address, _value: uint256) -> bool:
    self.allowance[msg.sender][_spender] = _value
    log Approval(owner=msg.sender, spender=_spender, value=_value)
    return True


@external
def mint(_to: address, _value: uint256) -> bool:
    assert msg.sender == self.minter, "only the minter mints"
    assert _to != empty(address), "mint to the zero address"
    self.totalSupply += _value
    self.balanceOf[_to] += _value
    log Transfer(sender=empty(address), receiver=_to, value=_value)
    return True
