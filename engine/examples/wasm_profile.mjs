// Drives `wasm_profile.rs` in Node: a warm-up on 4,096 work-items (so that V8's optimising
// tier has compiled the interpreter), then RUNS timed runs of the 65,536 work-item reduction,
// each printed with its simulated operations per second, then the fastest.
//
//   node engine/examples/wasm_profile.mjs PATH/TO/wasm_profile.wasm [RUNS]
import { readFileSync } from 'node:fs';

const [path, runs = '4'] = process.argv.slice(2);
if (!path) {
  console.error('usage: node wasm_profile.mjs PATH/TO/wasm_profile.wasm [RUNS]');
  process.exit(2);
}
const { instance } = await WebAssembly.instantiate(readFileSync(path), {});
const { launch, run } = instance.exports;
launch(4096);
run();
let best = Infinity;
for (let i = 0; i < Number(runs); i++) {
  launch(65536);
  const start = performance.now();
  const operations = Number(run());
  const ms = performance.now() - start;
  best = Math.min(best, ms);
  console.log(`reduction_65536 ms=${ms.toFixed(1)} operations=${operations} operations_per_s=${Math.round(operations / ms * 1000)}`);
}
console.log(`fastest ms=${best.toFixed(1)}`);
