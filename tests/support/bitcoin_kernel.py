"""A Bitcoin regtest chain in process, validated by Bitcoin Core's consensus engine (py-bitcoinkernel).

:class:`KernelRegtestNode` implements :class:`~domain.networks.bitcoin_node.BitcoinNode`:

* ``broadcast`` accepts a transaction into its mempool as a node would: every input must exist,
  be unspent and mature, and pass **script verification by libbitcoinkernel** against the output
  it spends, with the consensus flags including Taproot (:func:`verify_spend`);
* :meth:`KernelRegtestNode.mine` builds the next block (BIP-34 coinbase, the BIP-141 witness
  commitment, regtest proof of work) from the mempool and hands it to the kernel's
  ``ChainstateManager``; it counts only if the kernel connected it to the active chain, so every
  spend is checked again by the full block rules.

:meth:`KernelRegtestNode.reorganize` replaces the newest blocks by another branch with more work,
built on an older block: the kernel switches its active chain to it (a reorganization, decided
by the kernel's own best-chain rules, not by this class), and the node serves the new branch.

Nothing in it signs: coinbase rewards go to any script the caller names.
"""

from __future__ import annotations

import hashlib
from io import BytesIO
from pathlib import Path

import pbk
from embit import compact
from embit.script import Script, Witness
from embit.transaction import Transaction, TransactionInput, TransactionOutput

#: Regtest's genesis block (hash in display order) and time.
GENESIS_HASH = "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"
GENESIS_TIME = 1296688602
REGTEST_BITS = 0x207FFFFF
HALVING_INTERVAL = 150
COINBASE_MATURITY = 100
#: The script flags a node applies to every input (consensus, Taproot included).
CONSENSUS_FLAGS = (pbk.ScriptVerificationFlags.P2SH | pbk.ScriptVerificationFlags.DERSIG
                   | pbk.ScriptVerificationFlags.NULLDUMMY | pbk.ScriptVerificationFlags.CHECKLOCKTIMEVERIFY
                   | pbk.ScriptVerificationFlags.CHECKSEQUENCEVERIFY | pbk.ScriptVerificationFlags.WITNESS
                   | pbk.ScriptVerificationFlags.TAPROOT)


class Refused(Exception):
    """The node refused a transaction or a block."""


def sha256d(data: bytes) -> bytes:
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


def merkle_root(hashes: list[bytes]) -> bytes:
    level = list(hashes)
    while len(level) > 1:
        if len(level) % 2:
            level.append(level[-1])
        level = [sha256d(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


def verify_spend(raw_transaction: bytes, spent: list[tuple[int, bytes]]) -> None:
    """libbitcoinkernel's script verification of every input against ``spent`` [(amount, script)].

    Raises :class:`pbk.ScriptVerifyException` (or returns False-y) on a failing input.
    """
    tx = pbk.Transaction(raw_transaction)
    outputs = [pbk.TransactionOutput(pbk.ScriptPubkey(script), amount) for amount, script in spent]
    precomputed = pbk.script.PrecomputedTransactionData(tx, outputs)
    for index, (amount, script) in enumerate(spent):
        if not pbk.ScriptPubkey(script).verify(amount, tx, precomputed, index, CONSENSUS_FLAGS):
            raise Refused(f"input {index} fails script verification")


def _height_push(height: int) -> bytes:
    """BIP-34: the height as Bitcoin Core's ``CScript() << height`` pushes it."""
    if 1 <= height <= 16:
        return bytes([0x50 + height])
    number = height.to_bytes((height.bit_length() + 8) // 8, "little")
    return bytes([len(number)]) + number


class KernelRegtestNode:
    """A regtest chain whose blocks libbitcoinkernel validates and connects (see the module)."""

    def __init__(self, datadir: Path) -> None:
        self.chainman = pbk.load_chainman(datadir, pbk.ChainType.REGTEST)
        self.blocks: list[bytes] = []  # raw blocks from height 1
        self.hashes = [GENESIS_HASH]
        self.mempool: list[Transaction] = []
        #: (txid hex, index) -> (amount, script, height of a coinbase or None)
        self.utxos: dict[tuple[str, int], tuple[int, bytes, int | None]] = {}
        self.mempool_spent: set[tuple[str, int]] = set()
        self.confirmed: set[str] = set()

    # --- BitcoinNode ---------------------------------------------------------------------------

    async def height(self) -> int:
        return len(self.blocks)

    async def block(self, height: int) -> bytes | None:
        return self.blocks[height - 1] if 1 <= height <= len(self.blocks) else None

    async def block_hash(self, height: int) -> str | None:
        return self.hashes[height] if 0 <= height < len(self.hashes) else None

    async def fee_rate(self, target_blocks: int) -> int | None:
        return None

    async def broadcast(self, raw_transaction: bytes) -> str:
        tx = Transaction.parse(raw_transaction)
        txid = tx.txid().hex()
        if txid in self.confirmed or any(t.txid().hex() == txid for t in self.mempool):
            return txid  # already known (Bitcoin Core answers -27 for one in the chain)
        spent = []
        for item in tx.vin:
            outpoint = (item.txid.hex(), item.vout)
            coin = self.utxos.get(outpoint)
            if coin is None or outpoint in self.mempool_spent:
                raise Refused(f"input {outpoint} is missing or spent")
            if coin[2] is not None and len(self.blocks) + 1 - coin[2] < COINBASE_MATURITY:
                raise Refused("premature spend of a coinbase output")
            spent.append((coin[0], coin[1]))
        if sum(o.value for o in tx.vout) > sum(amount for amount, _ in spent):
            raise Refused("outputs exceed inputs")
        verify_spend(raw_transaction, spent)
        self.mempool.append(tx)
        self.mempool_spent.update((i.txid.hex(), i.vout) for i in tx.vin)
        return txid

    # --- mining --------------------------------------------------------------------------------

    def _fee(self, tx: Transaction) -> int:
        return sum(self.utxos[(i.txid.hex(), i.vout)][0] for i in tx.vin) - sum(o.value for o in tx.vout)

    def build_block(self, reward_script: bytes, transactions: list[Transaction], *, time_offset: int = 0) -> bytes:
        """The next block paying ``reward_script``, with ``transactions`` (not validated here)."""
        height = len(self.blocks) + 1
        subsidy = (50 * 10**8) >> (height // HALVING_INTERVAL)
        reward = subsidy + sum(self._fee(tx) for tx in transactions if all(
            (i.txid.hex(), i.vout) in self.utxos for i in tx.vin))
        coinbase = Transaction(version=2, vin=[TransactionInput(bytes(32), 0xFFFFFFFF,
                                                                script_sig=Script(_height_push(height) + b"\x00"),
                                                                witness=Witness([bytes(32)]))],
                               vout=[TransactionOutput(reward, Script(reward_script))])
        wtxids = [bytes(32)] + [sha256d(tx.serialize()) for tx in transactions]
        commitment = sha256d(merkle_root(wtxids) + bytes(32))
        coinbase.vout.append(TransactionOutput(0, Script(b"\x6a\x24\xaa\x21\xa9\xed" + commitment)))
        body = [coinbase, *transactions]
        root = merkle_root([tx.txid()[::-1] for tx in body])
        header_start = ((0x20000000).to_bytes(4, "little") + bytes.fromhex(self.hashes[-1])[::-1] + root
                        + (GENESIS_TIME + height * 600 + time_offset).to_bytes(4, "little") + REGTEST_BITS.to_bytes(4, "little"))
        target = 0x7FFFFF << (8 * (0x20 - 3))
        nonce = 0
        while int.from_bytes(sha256d(header_start + nonce.to_bytes(4, "little")), "little") > target:
            nonce += 1
        count = bytes([len(body)]) if len(body) < 0xFD else b"\xfd" + len(body).to_bytes(2, "little")
        return header_start + nonce.to_bytes(4, "little") + count + b"".join(tx.serialize() for tx in body)

    def submit_block(self, raw_block: bytes) -> None:
        """Hand a block to the kernel; it counts only if connected to the active chain."""
        expected = len(self.blocks) + 1
        try:
            self.chainman.process_block(pbk.Block(raw_block))
        except pbk.ProcessBlockException as exc:
            raise Refused(f"the kernel refused the block: {exc}") from None
        if self.chainman.get_active_chain().height != expected:
            raise Refused("the kernel did not connect the block (invalid)")
        self._connect(raw_block)

    def _connect(self, raw_block: bytes) -> None:
        """Serve ``raw_block`` as the next block and apply it to the coin set."""
        height = len(self.blocks) + 1
        self.blocks.append(raw_block)
        self.hashes.append(sha256d(raw_block[:80])[::-1].hex())
        stream = BytesIO(raw_block[80:])
        for position in range(compact.read_from(stream)):
            tx = Transaction.read_from(stream)
            txid = tx.txid().hex()
            self.confirmed.add(txid)
            for item in tx.vin if position else []:
                self.utxos.pop((item.txid.hex(), item.vout), None)
            for index, output in enumerate(tx.vout):
                if output.value > 0:
                    self.utxos[(txid, index)] = (output.value, output.script_pubkey.data,
                                                 height if position == 0 else None)

    def reorganize(self, fork_height: int, reward_script: bytes, blocks: int,
                   transactions: list[Transaction] | None = None) -> int:
        """Replace every block above ``fork_height`` by ``blocks`` new ones (``transactions`` in the
        first), which must be more than were replaced: the kernel's best-chain rule (most work)
        makes the new branch active, which is checked. The replaced blocks' transactions do not
        return to the mempool (the caller names what the new branch holds). Returns the height."""
        replaced = len(self.blocks) - fork_height
        if blocks <= replaced:
            raise ValueError("the new branch needs more blocks (work) than it replaces")
        kept = self.blocks[:fork_height]
        self.blocks, self.hashes, self.utxos, self.confirmed = [], self.hashes[:1], {}, set()
        for raw in kept:
            self._connect(raw)
        self.mempool, self.mempool_spent = [], set()
        for number in range(blocks):
            # A different time than the replaced block at that height: the new block differs even
            # when it holds the same transactions.
            raw = self.build_block(reward_script, list(transactions or []) if number == 0 else [], time_offset=1)
            try:
                self.chainman.process_block(pbk.Block(raw))
            except pbk.ProcessBlockException as exc:
                raise Refused(f"the kernel refused the block: {exc}") from None
            self._connect(raw)
        active = self.chainman.get_active_chain()
        if active.height != len(self.blocks) or str(active.block_tree_entries[active.height].block_hash) \
                != self.hashes[-1]:
            raise Refused("the kernel did not switch to the new branch")
        return len(self.blocks)

    def mine(self, reward_script: bytes, blocks: int = 1) -> int:
        """Mine ``blocks`` blocks (the mempool goes into the first); returns the new height."""
        for _ in range(blocks):
            transactions, self.mempool = self.mempool, []
            self.mempool_spent = set()
            self.submit_block(self.build_block(reward_script, transactions))
        return len(self.blocks)
