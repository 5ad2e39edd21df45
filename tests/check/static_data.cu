// --check and the program's static data (a held-out hunt's false reports,
// each of which also failed the launch): a string literal a kernel indexes;
// __device__ variables reached only through another's initializer
// (`__device__ int *p = table + 1;`, a __constant__ table of pointers);
// curand_init, whose skip-ahead reads cucc's own tables. No error may be
// reported; the answers are checked against the host.
#include <curand_kernel.h>
#include <cstdio>

__device__ int table[4] = {1, 2, 3, 4};
__device__ int *second = table + 1;
__device__ int n1 = 10, n2 = 20;
__constant__ int *const pick[2] = {&n1, &n2};

__global__ void hexes(const unsigned *v, char *out) {
  int t = threadIdx.x;
  out[t] = "0123456789abcdef"[(v[t / 8] >> (4 * (7 - t % 8))) & 15];
}

__global__ void through(int *out) {
  out[0] = second[0] + second[2];
  out[1] = *pick[0] + *pick[1];
}

__global__ void rng(float *out) {
  curandState s;
  curand_init(1234, threadIdx.x, 0, &s);
  out[threadIdx.x] = curand_uniform(&s);
}

int main() {
  unsigned *v;
  char *hex;
  int *o;
  float *f;
  cudaMallocManaged(&v, 2 * sizeof(unsigned));
  cudaMallocManaged(&hex, 17);
  cudaMallocManaged(&o, 2 * sizeof(int));
  cudaMallocManaged(&f, 64 * sizeof(float));
  v[0] = 0x01234567u;
  v[1] = 0x89abcdefu;
  hexes<<<1, 16>>>(v, hex);
  through<<<1, 1>>>(o);
  rng<<<1, 64>>>(f);
  int bad = cudaDeviceSynchronize() != cudaSuccess;
  hex[16] = 0;
  bad += strcmp(hex, "0123456789abcdef") != 0;
  bad += o[0] != 2 + 4 || o[1] != 30;
  for (int i = 0; i < 64; i++) bad += !(f[i] > 0.0f && f[i] <= 1.0f);
  bad += f[0] == f[1];
  printf("%s %s %d %d\n", bad ? "FAIL" : "PASS", hex, o[0], o[1]);
  cudaFree(v);
  cudaFree(hex);
  cudaFree(o);
  cudaFree(f);
  return bad != 0;
}
