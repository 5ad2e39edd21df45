// temporaries.cu: member functions called on temporary objects in device
// code: the samples' SharedMemory<T>() idiom (a conversion operator of a
// default-constructed temporary, specialized per type) and a const method
// of a constructed temporary.
#include <cstdio>
#include <cuda_runtime.h>

template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int smem_i[];
    return (T *)smem_i;
  }
};
template <> struct SharedMemory<double> {
  __device__ inline operator double *() {
    extern __shared__ double smem_d[];
    return (double *)smem_d;
  }
};

struct Acc {
  float s;
  __device__ Acc(float v) : s(v) {}
  __device__ float twice() const { return 2 * s; }
};

template <class T> __global__ void reverse(const T *in, T *out) {
  T *sdata = SharedMemory<T>();
  sdata[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      sdata[blockDim.x - 1 - threadIdx.x] + (T)Acc((float)threadIdx.x).twice();
}

template <class T> static int run(int blocks, int threads) {
  int n = blocks * threads, bad = 0;
  T *in, *out;
  cudaMallocManaged(&in, n * sizeof(T));
  cudaMallocManaged(&out, n * sizeof(T));
  for (int i = 0; i < n; i++) in[i] = (T)(i * 3 % 101);
  reverse<T><<<blocks, threads, threads * sizeof(T)>>>(in, out);
  if (cudaDeviceSynchronize() != cudaSuccess) bad++;
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < threads; t++) {
      T want = in[b * threads + threads - 1 - t] + (T)(2 * t);
      if (out[b * threads + t] != want && bad++ < 5)
        printf("block %d thread %d: %g, want %g\n", b, t, (double)out[b * threads + t], (double)want);
    }
  cudaFree(in);
  cudaFree(out);
  return bad;
}

int main() {
  int bad = run<float>(3, 64) + run<double>(2, 96) + run<int>(4, 50);
  printf("%s\n", bad ? "FAILED" : "PASS");
  return bad != 0;
}
