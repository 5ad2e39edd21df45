// ranges.cu: bugs that the fast versions of a checked build must still find
// when they test warp accesses as ranges (tests/check/CMakeLists.txt matches
// the lines: keep them). ./ranges KIND runs one kernel.
#include <cstdio>
#include <cstring>

// A lane-affine index set in the body of a loop: not fixed across it.
__global__ void loop_var(int *x, int n) {
  int i = threadIdx.x;
  x[i] = -1;
  for (int k = 0; k < n; k++) {
    i = threadIdx.x + 32 * k;
    x[i] = k;                                   // line 13: x[64..] at k = 2
  }
}

// Two views of dynamic shared memory: warp 0 reads 2-byte elements (not a
// size the per-word owner can hold), then warp 1 writes the same words.
__global__ void two_views(int *y) {
  extern __shared__ short sh[];
  extern __shared__ int si[];
  int t = threadIdx.x + 32 * threadIdx.y;
  int v = sh[t];                                // line 23: warp 0 reads words 0..15
  if (threadIdx.y == 1) si[threadIdx.x] = v;    // line 24: warp 1 writes words 0..31
  y[t] = v;
}

// Every 2nd thread writes (a run of every 2nd lane): the odd elements stay
// unwritten.
__global__ void every2(int *y) {
  int t = threadIdx.x;
  if (t == 0) y[62] = 0;
  if (t % 2 == 0) y[t] = t;
}
__global__ void read1(const int *y, int *z) {
  if (threadIdx.x == 1) z[0] = y[1];            // line 36: y[1] never written
}

// Half rows (16 x 2) in a loop tested as a whole: sub-row 1 reads y[16..47]
// before sub-row 0 writes them (at k = 3, 2).
__global__ void subrows(int *y, int *z, int n) {
  int t = threadIdx.x, r = threadIdx.y, acc = 0;
  y[128 + t + 16 * r] = 0;
  for (int k = 0; k < n; k++) {
    acc += y[t + 16 * r * k + 16 * r];          // line 45
    y[t + 64 - 16 * k + 128 * r] = k;
  }
  z[t + 16 * r] = acc;
}

// The same with a constant trip count (the loop runs inside the lane
// loop there): in bounds; it must compile, checked or not.
__global__ void loop_const(int *x) {
  int i = threadIdx.x, s = 0;
  for (int k = 0; k < 2; k++) {
    i = threadIdx.x + 32 * k;
    x[i] = k;
    s += i;
  }
  x[threadIdx.x] += s;
}

// Uniform code calling a device function runs once per warp: its reads
// are that warp's first thread's (a race between warps, an out-of-bounds
// read of block 1 by both warps), and the first access of a function is a
// read like any other.
__device__ int get(const int *p, int i) { return p[i]; }
__global__ void dev_war(int *y) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int v = get(s, 5);                            // thread 32 reads (in get, line 67)
  if (threadIdx.x == 0) s[5] = 7;               // line 73: after thread 0 wrote
  y[threadIdx.x] = v;
}
__global__ void dev_oob(const int *x, int *y, int n) {
  int v = get(x, n * blockIdx.x);
  y[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// A uniform condition is not evaluated once every lane has left: x[c[0]]
// would be x[1 << 29] (a correct program: reads x[0] only).
__global__ void exit_cond(const int *x, int *c, int *y) {
  int t = threadIdx.x;
  while (x[c[0]] == 0) {
    y[t] = 1;
    if (t == 0) c[0] = 1 << 29;
    if (t >= 0) break;
  }
}

// An if on a row value reads s[0] in every thread, then thread 0 writes it.
__global__ void row_if(int *y) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (s[0] >= (int)threadIdx.y) y[threadIdx.x] = 1;   // line 97
  if (threadIdx.x == 0) s[0] = 9;                     // line 98
}

// The tiled matmul's loop with its variable declared before it, tested as
// a whole too (16 x 16, half rows): b one element short, read by column 15
// in the last iteration.
__global__ void kdecl_oob(const int *a, const int *b, int *c, int n) {
  int row = threadIdx.y, col = threadIdx.x, sum = 0, k;
  for (k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];   // line 106
  c[row * n + col] = sum + k;
}

int main(int argc, char **argv) {
  const char *k = argc > 1 ? argv[1] : "";
  int *y, *z, h[16] = {0};
  cudaMalloc(&y, 256 * sizeof(int));
  cudaMalloc(&z, 64 * sizeof(int));
  cudaMemset(z, 0, 64 * sizeof(int));
  if (!strcmp(k, "loop_var")) {
    int *x;
    cudaMalloc(&x, 64 * sizeof(int));
    loop_var<<<1, 32>>>(x, 4);
  } else if (!strcmp(k, "loop_const")) {
    int hx[64];
    loop_const<<<1, 32>>>(y);
    cudaMemcpy(hx, y, sizeof hx, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int t = 0; t < 32; t++) bad += hx[t] != 2 * t + 32 || hx[32 + t] != 1;
    printf("loop_const: %s\n", bad ? "FAIL" : "PASS");
  } else if (!strcmp(k, "dev_war")) {
    dev_war<<<1, 64>>>(y);
  } else if (!strcmp(k, "dev_oob")) {
    dev_oob<<<2, 64>>>(z, y, 64);   // block 1 reads z[64]
  } else if (!strcmp(k, "exit_cond")) {
    cudaMemset(y, 0, 256 * sizeof(int));
    cudaMemset(z, 0, 64 * sizeof(int));
    exit_cond<<<1, 32>>>(y, z, y + 128);
    int hy[32], bad = 0;
    cudaMemcpy(hy, y + 128, sizeof hy, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 32; t++) bad += hy[t] != 1;
    printf("exit_cond: %s\n", bad ? "FAIL" : "PASS");
  } else if (!strcmp(k, "row_if")) {
    row_if<<<1, 32>>>(y);
  } else if (!strcmp(k, "two_views")) {
    two_views<<<1, dim3(32, 2), 256>>>(y);
  } else if (!strcmp(k, "every2")) {
    every2<<<1, 64>>>(y);
    read1<<<1, 64>>>(y, z);
  } else if (!strcmp(k, "kdecl_oob")) {
    int *a, *b;
    cudaMalloc(&a, 256 * sizeof(int));
    cudaMalloc(&b, 255 * sizeof(int));
    cudaMemset(a, 0, 256 * sizeof(int));
    cudaMemset(b, 0, 255 * sizeof(int));
    kdecl_oob<<<1, dim3(16, 16)>>>(a, b, y, 16);
  } else if (!strcmp(k, "subrows")) {
    cudaMemcpy(y, h, sizeof h, cudaMemcpyHostToDevice);
    subrows<<<1, dim3(16, 2)>>>(y, z, 4);
  }
  printf("%s: %s\n", k, cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
