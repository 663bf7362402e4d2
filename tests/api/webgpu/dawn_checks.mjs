// A WebGPU implementation on Tessera: Google's Dawn (the npm package `webgpu`, dawn.node) asked
// for an adapter on the Vulkan back end, then made to compute, render, sample a BC1 texture,
// test depth, blend and draw with 32-bit indices beyond 2^24. Dawn refuses a Vulkan device that
// offers neither textureCompressionBC nor both ETC2 and ASTC LDR, or that lacks one of the
// features it requires (Debian 12's lavapipe is refused: no shaderUniform*ArrayDynamicIndexing),
// so the adapter itself is the first check. Expected values come from the WebGPU and Vulkan
// specifications, computed here; lavapipe cannot be the oracle because Dawn refuses it.
//
// Run by webgpu_dawn_test.cpp: `node dawn_checks.mjs <node_modules dir>`; prints one line per
// check ("PASS name" or "FAIL name: why") and exits 1 when any check failed.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const modules = process.argv[2];
const { create, globals } = await import(pathToFileURL(join(modules, 'webgpu', 'index.js')).href);
Object.assign(globalThis, globals);

let failures = 0;
function report(name, problems) {
  if (problems.length === 0) console.log(`PASS ${name}`);
  else { failures++; console.log(`FAIL ${name}: ${problems.slice(0, 8).join('; ')}`); }
}

// The GPU object owns Dawn's instance: it must outlive the adapter and device (a collected
// instance leaves Dawn's event processing on freed state).
const gpu = create(['backend=vulkan']);
const adapter = await gpu.requestAdapter();
if (!adapter) { console.log('FAIL adapter: Dawn found no Vulkan adapter'); process.exit(1); }
console.log(`adapter: ${adapter.info.description}`);
report('adapter', [
  ...(adapter.info.description.includes('Tessera') ? [] : [`not Tessera's: ${adapter.info.description}`]),
  ...(adapter.features.has('texture-compression-bc') ? [] : ['texture-compression-bc missing']),
]);
const device = await adapter.requestDevice({ requiredFeatures: ['texture-compression-bc'] });
const deviceErrors = [];
device.onuncapturederror = (e) => deviceErrors.push(e.error.message);

const W = 64, H = 64;
async function readTexture(texture) {
  const buffer = device.createBuffer({ size: W * H * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyTextureToBuffer({ texture }, { buffer, bytesPerRow: W * 4 }, [W, H]);
  device.queue.submit([encoder.finish()]);
  await buffer.mapAsync(GPUMapMode.READ);
  const pixels = new Uint8Array(buffer.getMappedRange().slice(0));
  buffer.destroy();
  return pixels;
}
// Compares every pixel with expected(x, y) (an RGBA array), within `tolerance` per channel.
function comparePixels(pixels, expected, tolerance = 0) {
  const problems = [];
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const want = expected(x, y), at = (y * W + x) * 4;
      const got = [...pixels.slice(at, at + 4)];
      if (got.some((v, c) => Math.abs(v - want[c]) > tolerance)) problems.push(`(${x},${y}) ${got} != ${want}`);
    }
  return problems;
}
const target = () => device.createTexture({ size: [W, H], format: 'rgba8unorm',
  usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });

// 1. Compute: every element squared plus one (exact in float for these values).
{
  const n = 1024;
  const module = device.createShaderModule({ code: `
    @group(0) @binding(0) var<storage, read_write> d: array<f32>;
    @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) { d[id.x] = d[id.x] * d[id.x] + 1.0; }` });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const data = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(data, 0, new Float32Array([...Array(n).keys()]));
  const readBack = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: data } }] }));
  pass.dispatchWorkgroups(n / 64);
  pass.end();
  encoder.copyBufferToBuffer(data, 0, readBack, 0, n * 4);
  device.queue.submit([encoder.finish()]);
  await readBack.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(readBack.getMappedRange().slice(0));
  const problems = [];
  out.forEach((v, i) => { if (v !== i * i + 1) problems.push(`d[${i}] = ${v}, not ${i * i + 1}`); });
  report('compute', problems);
}

// 2 and 3. A full-screen triangle sampling a 4x4 texture with NEAREST: each pixel shows the
// texel its centre falls in (no centre lies on a texel edge at 64x64).
const sampleShader = `
  struct VO { @builtin(position) p: vec4f, @location(0) uv: vec2f };
  @vertex fn vs(@builtin(vertex_index) i: u32) -> VO {
    var corner = array(vec2f(-1, -1), vec2f(3, -1), vec2f(-1, 3));
    var o: VO; o.p = vec4f(corner[i], 0, 1); o.uv = corner[i] * vec2f(0.5, -0.5) + 0.5; return o; }
  @group(0) @binding(0) var t: texture_2d<f32>;
  @group(0) @binding(1) var s: sampler;
  @fragment fn fs(v: VO) -> @location(0) vec4f { return textureSample(t, s, v.uv); }`;
async function drawSampled(texture) {
  const module = device.createShaderModule({ code: sampleShader });
  const pipeline = device.createRenderPipeline({ layout: 'auto', vertex: { module, entryPoint: 'vs' },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] } });
  const output = target();
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({ colorAttachments: [{ view: output.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }] });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [
    { binding: 0, resource: texture.createView() }, { binding: 1, resource: device.createSampler({ magFilter: 'nearest' }) }] }));
  pass.draw(3);
  pass.end();
  device.queue.submit([encoder.finish()]);
  return readTexture(output);
}
const texelOf = (x, y) => [Math.floor((x + 0.5) / W * 4), Math.floor((y + 0.5) / H * 4)];
{
  const texture = device.createTexture({ size: [4, 4], format: 'rgba8unorm', usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
  const rgba = (tx, ty) => [tx * 80, ty * 80, ((tx + ty) & 1) * 255, 200];
  const texels = new Uint8Array(64);
  for (let ty = 0; ty < 4; ty++) for (let tx = 0; tx < 4; tx++) texels.set(rgba(tx, ty), (ty * 4 + tx) * 4);
  device.queue.writeTexture({ texture }, texels, { bytesPerRow: 16 }, [4, 4]);
  report('textured draw', comparePixels(await drawSampled(texture), (x, y) => rgba(...texelOf(x, y))));
}
{
  // One BC1 block: colour0 = pure red (0xF800) > colour1 = pure blue (0x001F), so four colours:
  // c0, c1, (2 c0 + c1) / 3, (c0 + 2 c1) / 3 (Khronos Data Format Specification, BC1), which in
  // 8-bit UNORM are exactly 255/0/0, 0/0/255, 170/0/85, 85/0/170; texel (x, y) takes index (x + y) % 4.
  const palette = [[255, 0, 0, 255], [0, 0, 255, 255], [170, 0, 85, 255], [85, 0, 170, 255]];
  let indices = 0;
  for (let ty = 0; ty < 4; ty++) for (let tx = 0; tx < 4; tx++) indices |= ((tx + ty) % 4) << (2 * (ty * 4 + tx));
  const block = new Uint8Array(8);
  new DataView(block.buffer).setUint16(0, 0xF800, true);
  new DataView(block.buffer).setUint16(2, 0x001F, true);
  new DataView(block.buffer).setUint32(4, indices >>> 0, true);
  const texture = device.createTexture({ size: [4, 4], format: 'bc1-rgba-unorm', usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
  device.queue.writeTexture({ texture }, block, { bytesPerRow: 8 }, [4, 4]);
  report('bc1 texture', comparePixels(await drawSampled(texture), (x, y) => { const [tx, ty] = texelOf(x, y); return palette[(tx + ty) % 4]; }));
}

// 4. Depth test (less) and blending: green at z = 0.5 over the whole target, red at 0.75
// (rejected), then blue with alpha 0.25 at 0.25 blended src-alpha / one-minus-src-alpha:
// colour 0.25 x (0, 0, 1) + 0.75 x (0, 1, 0) = (0, 191.25, 63.75)/255, alpha 0.25 x 0.25 + 0.75 x 1
// = 0.8125 (207.19); 1 unit of tolerance for the blend's precision (Vulkan 1.3, "Blend Operations").
{
  const module = device.createShaderModule({ code: `
    struct Draw { colour: vec4f, depth: f32 };
    @group(0) @binding(0) var<uniform> draw: Draw;
    @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
      var corner = array(vec2f(-1, -1), vec2f(3, -1), vec2f(-1, 3));
      return vec4f(corner[i], draw.depth, 1); }
    @fragment fn fs() -> @location(0) vec4f { return draw.colour; }` });
  const pipeline = device.createRenderPipeline({ layout: 'auto', vertex: { module, entryPoint: 'vs' },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm', blend: {
      color: { srcFactor: 'src-alpha', dstFactor: 'one-minus-src-alpha' },
      alpha: { srcFactor: 'src-alpha', dstFactor: 'one-minus-src-alpha' } } }] },
    depthStencil: { format: 'depth24plus', depthWriteEnabled: true, depthCompare: 'less' } });
  const draws = [[[0, 1, 0, 1], 0.5], [[1, 0, 0, 1], 0.75], [[0, 0, 1, 0.25], 0.25]];
  const uniforms = draws.map(([colour, depth]) => {
    const buffer = device.createBuffer({ size: 32, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(buffer, 0, new Float32Array([...colour, depth, 0, 0, 0]));
    return device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer } }] });
  });
  const output = target();
  const depth = device.createTexture({ size: [W, H], format: 'depth24plus', usage: GPUTextureUsage.RENDER_ATTACHMENT });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ view: output.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }],
    depthStencilAttachment: { view: depth.createView(), depthLoadOp: 'clear', depthStoreOp: 'store', depthClearValue: 1 } });
  pass.setPipeline(pipeline);
  for (const group of uniforms) { pass.setBindGroup(0, group); pass.draw(3); }
  pass.end();
  device.queue.submit([encoder.finish()]);
  report('depth and blend', comparePixels(await readTexture(output), () => [0, 191, 64, 207], 1));
}

// 5. Indexed draw with 32-bit indices above 2^24 (WebGPU needs fullDrawIndexUint32): indices
// 2^24 + 0..3 with base vertex -2^24 name vertices 0..3, a quad over the target's left half.
{
  const module = device.createShaderModule({ code: `
    @vertex fn vs(@location(0) p: vec2f) -> @builtin(position) vec4f { return vec4f(p, 0, 1); }
    @fragment fn fs() -> @location(0) vec4f { return vec4f(1, 1, 0, 1); }` });
  const pipeline = device.createRenderPipeline({ layout: 'auto',
    vertex: { module, entryPoint: 'vs', buffers: [{ arrayStride: 8, attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x2' }] }] },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] } });
  const vertices = device.createBuffer({ size: 32, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(vertices, 0, new Float32Array([-1, -1, 0, -1, 0, 1, -1, 1]));
  const base = 1 << 24;
  const indices = device.createBuffer({ size: 24, usage: GPUBufferUsage.INDEX | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(indices, 0, new Uint32Array([0, 1, 2, 0, 2, 3].map((i) => base + i)));
  const output = target();
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({ colorAttachments: [{ view: output.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }] });
  pass.setPipeline(pipeline);
  pass.setVertexBuffer(0, vertices);
  pass.setIndexBuffer(indices, 'uint32');
  pass.drawIndexed(6, 1, 0, -base);
  pass.end();
  device.queue.submit([encoder.finish()]);
  report('32-bit indices', comparePixels(await readTexture(output), (x) => (x < W / 2 ? [255, 255, 0, 255] : [0, 0, 0, 255])));
}

await device.queue.onSubmittedWorkDone();
report('no device errors', deviceErrors);
device.destroy();
gpu.keepAlive = true;  // referenced to the end (see create above)
process.exit(failures ? 1 : 0);
