#include <initializer_list>
// templates_dyn.cu: __device__ function templates (type and non-type
// parameters) called from template kernels, and extern __shared__ memory of
// several sizes set by the launch's third parameter.
#include <cstdio>

template <typename T, int SCALE> __device__ T scaled(T x) { return x * (T)SCALE; }
template <typename T> __device__ T twice(T x) { return scaled<T, 2>(x); }

template <typename T>
__global__ void rev(const T *in, T *out, int n) {
  extern __shared__ unsigned char raw[];
  T *s = (T *)raw;
  int t = threadIdx.x;
  if (t < n) s[t] = twice(in[t]);
  __syncthreads();
  if (t < n) out[t] = s[n - 1 - t] + scaled<T, 3>((T)1);
}

template <typename T> static int check(int n) {
  T *din, *dout, h[1024], o[1024];
  for (int i = 0; i < n; i++) h[i] = (T)(i + 1);
  cudaMalloc(&din, n * sizeof(T));
  cudaMalloc(&dout, n * sizeof(T));
  cudaMemcpy(din, h, n * sizeof(T), cudaMemcpyHostToDevice);
  rev<T><<<1, n, n * sizeof(T)>>>(din, dout, n);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(o, dout, n * sizeof(T), cudaMemcpyDeviceToHost);
  int bad = e != cudaSuccess;
  for (int i = 0; i < n; i++)
    if (o[i] != (T)(2 * (n - i) + 3)) bad++;
  if (bad) printf("n=%d size %zu: %d wrong\n", n, sizeof(T), bad);
  cudaFree(din);
  cudaFree(dout);
  return bad;
}

int main() {
  int bad = 0;
  for (int n : {1, 7, 32, 100, 513, 1024}) {
    bad += check<int>(n);
    bad += check<float>(n);
    bad += check<double>(n);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
