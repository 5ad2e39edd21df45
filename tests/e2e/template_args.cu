// template_args.cu: kernel templates instantiated with bool, unsigned,
// negative and char arguments, and __restrict__ pointer parameters: the
// host unit names each instantiation as the host compiler spells it
// (libclang reads a bool `true` as -1), also from a host template with a
// dependent __restrict__ parameter type.
#include <cstdio>

template <unsigned B, bool P, int K, char C>
__global__ void scale(const float *__restrict__ in, float *__restrict__ out, unsigned n) {
  unsigned i = blockIdx.x * B + threadIdx.x;
  if (i < n) out[i] = in[i] * (P ? 2.0f : 3.0f) + K + C;
}

template <class T, bool P>
__global__ void twice(const T *__restrict__ in, T *__restrict__ out) { out[threadIdx.x] = in[threadIdx.x] * (P ? 2 : 1); }

template <class T> void run(const T *in, T *out) { twice<T, true><<<1, 4>>>(in, out); }

int main() {
  float *a, *b, h[64];
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&b, sizeof h);
  for (int i = 0; i < 64; i++) h[i] = i;
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  scale<64u, true, -5, 'a'><<<1, 64>>>(a, b, 64);
  cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
  float x = h[5];
  scale<4000000000u, false, 7, '\0'><<<1, 64>>>(a, b, 64);
  cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
  int *ia, *ib, hi[4] = {1, 2, 3, 4};
  cudaMalloc(&ia, sizeof hi);
  cudaMalloc(&ib, sizeof hi);
  cudaMemcpy(ia, hi, sizeof hi, cudaMemcpyHostToDevice);
  run<int>(ia, ib);
  cudaMemcpy(hi, ib, sizeof hi, cudaMemcpyDeviceToHost);
  bool ok = x == 10 - 5 + 'a' && h[0] == 7 && hi[3] == 8;
  printf("%g %g\n%s\n", x, h[0], ok ? "PASS" : "FAIL");
  return !ok;
}
