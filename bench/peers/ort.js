// Times onnxruntime on an exported net for "trench bench --peers".
//
// Usage: node ort.js NET.onnx TRIVIAL.onnx INPUT.bin POSITIONS
//
// INPUT holds POSITIONS positions' feature planes as little-endian
// float32; a call at batch b runs the net on the first b of them.
// TRIVIAL is a model with one Identity node on a 1×1 input: timing it
// gives the per-call overhead of this path (a Promise, onnxruntime-node's
// binding, creating the input tensor and the output's), which a batch of
// one pays beside the net's work. Both sessions run on one thread.
//
// After loading it prints one line of JSON {"ready": true, "onnxruntime":
// version}, then answers each line of stdin, "net B SECONDS" or "trivial
// B SECONDS", with one line of JSON {"calls", "wall", "cpu"}: the calls
// made in at least SECONDS after a warm-up, their elapsed seconds and the
// process's CPU seconds (user + system, every thread). The module
// onnxruntime-node is found through NODE_PATH.
'use strict';
const fs = require('fs');
const readline = require('readline');
const ort = require('onnxruntime-node');

const options = {
  executionProviders: ['cpu'],
  graphOptimizationLevel: 'all',
  executionMode: 'sequential',
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
};

async function main() {
  const [netPath, trivialPath, inputPath, count] = process.argv.slice(2);
  if (!count) {
    throw new Error('usage: node ort.js NET.onnx TRIVIAL.onnx INPUT.bin POSITIONS');
  }
  const sessions = {
    net: await ort.InferenceSession.create(netPath, options),
    trivial: await ort.InferenceSession.create(trivialPath, options),
  };
  const bytes = fs.readFileSync(inputPath);
  const data = new Float32Array(new Uint8Array(bytes).buffer); // copied: aligned
  const positions = Number(count);
  const per = data.length / positions;
  if (!Number.isInteger(per) || per <= 0) {
    throw new Error(`${inputPath}: ${data.length} floats do not split into ${count} positions`);
  }
  const netShape = sessions.net.inputMetadata[0].shape.slice(1);
  const version = require('onnxruntime-node/package.json').version;
  console.log(JSON.stringify({ ready: true, onnxruntime: version }));

  const rl = readline.createInterface({ input: process.stdin });
  for await (const line of rl) {
    const [which, b, secs] = line.trim().split(/\s+/);
    const session = sessions[which];
    const batch = Number(b);
    const seconds = Number(secs);
    if (!session || !(batch >= 1) || !(seconds > 0) || (which === 'net' && batch > positions)) {
      throw new Error(`bad command ${JSON.stringify(line)}`);
    }
    const name = session.inputNames[0];
    let feed;
    if (which === 'net') {
      const x = data.subarray(0, batch * per);
      feed = () => ({ [name]: new ort.Tensor('float32', x, [batch, ...netShape]) });
    } else {
      const x = new Float32Array(batch);
      feed = () => ({ [name]: new ort.Tensor('float32', x, [batch, 1]) });
    }
    for (let i = 0; i < 5; i++) {
      await session.run(feed());
    }
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    let calls = 0;
    let wall = 0;
    while (calls === 0 || wall < seconds) {
      await session.run(feed());
      calls++;
      wall = Number(process.hrtime.bigint() - t0) / 1e9;
    }
    const cpu = process.cpuUsage(cpu0);
    console.log(JSON.stringify({ calls, wall, cpu: (cpu.user + cpu.system) / 1e6 }));
  }
}

main().catch((err) => {
  console.error(err.message || err);
  process.exit(1);
});
