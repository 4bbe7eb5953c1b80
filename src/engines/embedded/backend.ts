// The one piece of process-wide state of the embedded engine: the tfjs backend. Everything else
// (weights, optimizer, caches) lives in objects, so the same code runs in the main thread or in
// a worker_threads Worker, where each thread calls initBackend() once.
//
// Besides selecting 'wasm', this replaces the wasm Slice kernel. The stock kernel first copies
// the WHOLE input tensor out of the wasm heap (readSync) and then slices the copy, so taking a
// [128×32] block of a [1024×384] tensor cost ~1 ms; attention takes hundreds of such blocks per
// step. Ours reads the input through a view of the heap (~20–40 µs).

import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';

let ready: Promise<void> | null = null;

/** Selects the wasm backend and installs the fast Slice kernel; safe to call any number of times. */
export function initBackend(): Promise<void> {
  ready ??= (async () => {
    await tf.setBackend('wasm');
    await tf.ready();
    tf.unregisterKernel('Slice', 'wasm');
    tf.registerKernel({ kernelName: 'Slice', backendName: 'wasm', kernelFunc: heapViewSlice as unknown as tf.KernelFunc });
  })();
  return ready;
}

interface WasmTensorInfo {
  dataId: object;
  shape: number[];
  dtype: tf.DataType;
}

interface WasmBackendLike {
  makeOutput(shape: number[], dtype: tf.DataType): WasmTensorInfo;
  typedArrayFromHeap(t: WasmTensorInfo): Float32Array | Int32Array | Uint8Array;
}

/** Slice kernel that copies rows of the last axis straight from a heap view of the input. */
function heapViewSlice(args: {
  inputs: { x: WasmTensorInfo };
  attrs: { begin: number | number[]; size: number | number[] };
  backend: WasmBackendLike;
}): WasmTensorInfo {
  const {
    inputs: { x },
    attrs,
    backend,
  } = args;
  const [begin, size] = tf.slice_util.parseSliceParams(x as unknown as tf.TensorInfo, attrs.begin, attrs.size);
  const out = backend.makeOutput(size, x.dtype);
  const total = tf.util.sizeFromShape(size);
  if (total === 0) return out;
  const src = backend.typedArrayFromHeap(x);
  const dst = backend.typedArrayFromHeap(out);
  const rank = x.shape.length;
  if (rank === 0) {
    dst[0] = src[0];
    return out;
  }
  const strides = tf.util.computeStrides(x.shape);
  const inner = size[rank - 1];
  const counter = new Array<number>(rank - 1).fill(0);
  for (let o = 0; o < total; o += inner) {
    let offset = begin[rank - 1];
    for (let d = 0; d < rank - 1; d++) offset += (begin[d] + counter[d]) * strides[d];
    dst.set(src.subarray(offset, offset + inner), o);
    for (let d = rank - 2; d >= 0; d--) {
      if (++counter[d] < size[d]) break;
      counter[d] = 0;
    }
  }
  return out;
}
