// A Solana payer for tests and operators of the local stack: signs one transaction with @solana/kit and
// sends it over JSON-RPC, like a wallet. Prints {"signature": ..., "slot": ...} once the transaction is
// confirmed (or {"error": ...} and exits 1).
//
//   node solana-pay.mjs --rpc URL --payer BASE58_SECRET --to OWNER --amount ATOMIC [--memo TEXT]
//        [--mint MINT] [--new-mint] [--to-account TOKEN_ACCOUNT] [--fail] [--commitment confirmed]
//        [--fee-payer BASE58_SECRET]
//
// --new-mint pays with a fresh mint of the payer's own (6 decimals; "another mint"); --to-account sends
// to that token account instead of the owner's associated one; --fail asks for more than the payer
// holds and sends without preflight, so the transaction lands and fails on chain; --fee-payer has
// another key pay the fees (and the associated token account's rent), as an x402 facilitator does.
import {
  address, appendTransactionMessageInstructions, createKeyPairSignerFromBytes, createSolanaRpc,
  createTransactionMessage, generateKeyPairSigner, getBase58Encoder, getBase64EncodedWireTransaction,
  getSignatureFromTransaction, pipe, setTransactionMessageFeePayerSigner, setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import {
  TOKEN_PROGRAM_ADDRESS, findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction, getMintSize, getMintToCheckedInstruction, getTransferCheckedInstruction,
} from '@solana-program/token';
import { getCreateAccountInstruction } from '@solana-program/system';

const MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const k = process.argv[i].replace(/^--/, '');
  if (['new-mint', 'fail'].includes(k)) args[k] = true;
  else args[k] = process.argv[++i];
}

async function main() {
  const rpc = createSolanaRpc(args.rpc);
  const payer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(args.payer));
  const feePayer = args['fee-payer'] ? await createKeyPairSignerFromBytes(getBase58Encoder().encode(args['fee-payer'])) : payer;
  const owner = address(args.to);
  const amount = BigInt(args.amount);
  const commitment = args.commitment ?? 'confirmed';
  const ix = [];
  let mint = address(args.mint ?? 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
  const extra = [];
  if (args['new-mint']) {
    const m = await generateKeyPairSigner();
    extra.push(m);
    mint = m.address;
    const space = BigInt(getMintSize());
    const rent = await rpc.getMinimumBalanceForRentExemption(space).send();
    ix.push(getCreateAccountInstruction({ payer, newAccount: m, lamports: rent, space, programAddress: TOKEN_PROGRAM_ADDRESS }));
    ix.push(getInitializeMint2Instruction({ mint: mint, decimals: 6, mintAuthority: payer.address }));
    const [own] = await findAssociatedTokenPda({ owner: payer.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    ix.push(getCreateAssociatedTokenIdempotentInstruction({ payer, ata: own, owner: payer.address, mint }));
    ix.push(getMintToCheckedInstruction({ mint, token: own, mintAuthority: payer, amount, decimals: 6 }));
  }
  const [source] = await findAssociatedTokenPda({ owner: payer.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  let destination;
  if (args['to-account']) {
    destination = address(args['to-account']);
  } else {
    [destination] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    ix.push(getCreateAssociatedTokenIdempotentInstruction({ payer: feePayer, ata: destination, owner, mint }));
  }
  const sent = args.fail ? amount + 10n ** 15n : amount;
  ix.push(getTransferCheckedInstruction({ source, mint, destination, authority: payer, amount: sent, decimals: 6 }));
  if (args.memo !== undefined) {
    ix.push({ programAddress: MEMO_PROGRAM, accounts: [], data: new TextEncoder().encode(args.memo) });
  }
  const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: 'processed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstructions(ix, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const signature = getSignatureFromTransaction(signed);
  await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64', skipPreflight: Boolean(args.fail) }).send();
  const deadline = Date.now() + 60_000;
  const rank = { processed: 0, confirmed: 1, finalized: 2 };
  while (Date.now() < deadline) {
    const { value: [st] } = await rpc.getSignatureStatuses([signature]).send();
    if (st && rank[st.confirmationStatus] >= rank[commitment]) {
      console.log(JSON.stringify({ signature, slot: Number(st.slot), err: st.err ?? null, mint, destination }, (k, v) => (typeof v === 'bigint' ? Number(v) : v)));
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${signature} not ${commitment} within 60 s`);
}

main().catch((e) => {
  console.log(JSON.stringify({ error: String(e?.message ?? e), context: e?.context ?? null }, (k, v) => (typeof v === 'bigint' ? v.toString() : v)));
  process.exit(1);
});
