// Runs an ONNX model in onnxruntime for the onnx package's tests.
//
// Usage: node run.js MODEL INPUT N OUTDIR
//
// INPUT holds N positions' inputs (a conv net's feature planes, an
// NNUE's features) as little-endian float32; the model's input shape
// gives the size of each. Each output is written to OUTDIR/<name>.bin as
// little-endian float32, its name with "/" turned into "_" (e.g.
// _output_policy.bin), and a line per output "name dims" goes to stdout.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

async function main() {
  const [model, input, count, outDir] = process.argv.slice(2);
  if (!outDir) {
    throw new Error('usage: node run.js MODEL INPUT N OUTDIR');
  }
  const n = Number(count);
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
  });
  const bytes = fs.readFileSync(input);
  const data = new Float32Array(new Uint8Array(bytes).buffer); // copied: aligned
  const per = data.length / n;
  if (!Number.isInteger(per)) {
    throw new Error(`${input}: ${data.length} floats do not split into ${n} positions`);
  }
  const name = session.inputNames[0];
  const dims = [n, ...session.inputMetadata[0].shape.slice(1)];
  const feeds = { [name]: new ort.Tensor('float32', data, dims) };
  const results = await session.run(feeds);
  for (const out of session.outputNames) {
    const t = results[out];
    const buf = Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    fs.writeFileSync(path.join(outDir, out.replace(/\//g, '_') + '.bin'), buf);
    console.log(out, t.dims.join(' '));
  }
}

main().catch((err) => {
  console.error(err.message || err);
  process.exit(1);
});
