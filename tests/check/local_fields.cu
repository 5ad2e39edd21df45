// --check on local arrays of records and vector types indexed at run time
// (`float2 v[4]; v[j].x`): each lane's array is element-major in the
// generated C, so the access is checked by its index, not against one
// object (every such access was reported out of bounds and the launch
// failed). Usage: local_fields [j]: j = 4 is out of bounds, and reported.
#include <cstdio>
#include <cstdlib>

struct P { int a; float b; };

__global__ void k(int *out, int j) {
  float2 v[4];
  P ps[3];
  for (int i = 0; i < 4; i++) v[i] = make_float2((float)i, (float)threadIdx.x);
  for (int i = 0; i < 3; i++) ps[i] = P{i * 10, 0.5f * i};
  v[j].x += 1.0f;
  ps[j % 3].a += (int)threadIdx.x;
  out[threadIdx.x] = (int)(v[j].x + v[j].y) + ps[j % 3].a + (int)(2.0f * ps[j % 3].b);
}

int main(int argc, char **argv) {
  int j = argc > 1 ? atoi(argv[1]) : 2;
  int *d;
  cudaMallocManaged(&d, 64 * sizeof(int));
  k<<<1, 64>>>(d, j);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("synchronize: %s\n", cudaGetErrorName(e));
    return 1;
  }
  int bad = 0;
  for (int t = 0; t < 64; t++) {
    int want = (j + 1 + t) + (j % 3 * 10 + t) + j % 3;
    if (d[t] != want && bad++ < 3) printf("thread %d: %d, want %d\n", t, d[t], want);
  }
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
