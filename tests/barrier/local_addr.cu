// Locals reached through pointers across __syncthreads(): the pointer is kept
// from one region to the next, so what it points into must be too. Found as a
// wrong answer with no error: `p = blockIdx.x & 1 ? a : b` (the arrays decay
// after the ?:) left a and b in the first region's registers, one per warp.
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void decl_ptr(int *out) {   // pointer declared with the array's address
  int tmp[2];
  tmp[0] = threadIdx.x; tmp[1] = threadIdx.x * 2;
  int *p = tmp;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = p[0] + p[1];
}
__global__ void nested(int *out) {     // array in a block, pointer outside
  int *p;
  {
    int tmp[2];
    tmp[0] = threadIdx.x; tmp[1] = threadIdx.x * 2;
    p = tmp;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = p[0] + p[1];
  }
}
__global__ void through(int *out) {    // stores through the pointer, reads by name
  int tmp[2];
  int *p = tmp;
  p[0] = threadIdx.x; p[1] = threadIdx.x * 2;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tmp[0] + tmp[1];
}
__device__ int sum2(const int *p) { return p[0] + p[1]; }
__global__ void callee(int *out) {
  int tmp[2];
  tmp[0] = threadIdx.x; tmp[1] = threadIdx.x * 2;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum2(tmp);
}
__global__ void in_loop(int *out) {
  int tmp[2];
  int *p = tmp;
  for (int i = 0; i < 2; i++) {
    p[0] = threadIdx.x + i; p[1] = threadIdx.x * 2;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = p[0] + p[1] - i;
    __syncthreads();
  }
}
__global__ void varying_choice(int *out) {
  int tmp[2];
  int *p = threadIdx.x & 1 ? tmp : tmp + 1;
  tmp[0] = threadIdx.x; tmp[1] = threadIdx.x * 2;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x & 1 ? p[0] + p[1] : p[-1] + p[0];
}
struct Ref { int *a; };
__global__ void in_record(int *out) {
  int tmp[2];
  Ref s; s.a = tmp;
  tmp[0] = threadIdx.x; tmp[1] = threadIdx.x * 2;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s.a[0] + s.a[1];
}
// the arrays hold uniform values, chosen by a uniform condition
__global__ void uniform_choice(int *out) {
  int a[2], b[2];
  a[0] = 0; a[1] = 0; b[0] = 10; b[1] = -10;
  int *p = blockIdx.x & 1 ? a : b;
  __syncthreads();
  p[0] += threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = p[0] + p[1] + threadIdx.x * 2;
}
__global__ void comma_choice(int *out) {
  int a[2], b[2], n = 0;
  a[0] = 0; a[1] = 0; b[0] = 10; b[1] = -10;
  int *p = (n++, blockIdx.x & 1 ? a : b);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = p[0] + p[1] + threadIdx.x * 3 + n - 1;
}
__global__ void addr_choice(int *out) {
  int x = 0, y = 0;
  int *p = blockIdx.x & 1 ? &x : &y;
  __syncthreads();
  *p = threadIdx.x * 3;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = x + y;
}
__global__ void ref_choice(int *out) {
  int x = 0, y = 0;
  int &r = blockIdx.x & 1 ? x : y;
  __syncthreads();
  r = threadIdx.x * 3;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = x + y;
}
__global__ void walking(int *out) {
  int tmp[4] = {0, 0, 0, 0};
  int *p = tmp;
  __syncthreads();
  for (int i = 0; i < 4; i++) *p++ = threadIdx.x * (i == 3 ? 3 : 0);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tmp[0] + tmp[1] + tmp[2] + tmp[3];
}

int main() {
  const int B = 4, T = 256, n = B * T;
  int *d;
  CHECK(cudaMallocManaged(&d, n * sizeof(int)));
  struct { const char *name; void (*k)(int *); } ks[] = {
    {"decl_ptr", decl_ptr}, {"nested", nested}, {"through", through}, {"callee", callee},
    {"in_loop", in_loop}, {"varying_choice", varying_choice}, {"in_record", in_record},
    {"uniform_choice", uniform_choice}, {"comma_choice", comma_choice}, {"addr_choice", addr_choice},
    {"ref_choice", ref_choice}, {"walking", walking}};
  int bad = 0;
  for (unsigned k = 0; k < sizeof ks / sizeof ks[0]; k++) {
    CHECK(cudaMemset(d, 0xff, n * sizeof(int)));
    ks[k].k<<<B, T>>>(d);
    CHECK(cudaDeviceSynchronize());
    int wrong = 0;
    for (int i = 0; i < n; i++)
      if (d[i] != 3 * (i % T) && wrong++ < 3)
        printf("%s: out[%d] = %d, want %d\n", ks[k].name, i, d[i], 3 * (i % T));
    bad += wrong;
  }
  CHECK(cudaFree(d));
  if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}
