// overload.cu: overloaded and template kernels launched from device code
// (dynamic parallelism) as cuda-samples write them, which clang alone does
// not resolve there (frontend/cdp.c): a kernel that a header declares once
// more with other parameters (cdpAdvancedQuicksort's qsort_warp), overloads
// by type, a template launching itself with shared memory and a stream
// (cdpQuadtree's build_quadtree_kernel<N>), deduced template arguments
// (cdpSimpleQuicksort's shape), instantiations that only device code
// launches, launches from __device__ function templates and by qualified
// name, and a header's template. Each checked against a CPU reference.
#include <cstdio>
#include <cstdlib>
#include "overload.cuh"

static int fails;
#define CHECK(c, ...)               \
  do {                              \
    if (!(c)) {                     \
      printf("FAIL: " __VA_ARGS__); \
      printf("\n");                 \
      fails++;                      \
    }                               \
  } while (0)

// 1. declared with other parameters (never defined: clang finds two
// candidates), defined with a depth; recursion without braces
__global__ void scale(int *v, int n, int k);
__global__ void scale(int *v, int n, int k, int depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= k;
  if (i == 0 && depth < 2) scale<<<(n + 31) / 32, 32>>>(v, n, k, depth + 1);
}

// 2. overloads by type, launched one after another on one line
__global__ void put(int *v, int x) { v[threadIdx.x] = x + threadIdx.x; }
__global__ void put(float *v, float x) { v[threadIdx.x] = x * 2 + threadIdx.x; }
__global__ void put_both(int *a, float *b) { put<<<1, 8>>>(a, 5); put<<<1, 8>>>(b, 1.5f); }

// 3. a template launching itself, dynamic shared memory and a device stream
// in the configuration, in a loop
template <int N> __global__ void tree(int *depth_of, int *sums, int node, int depth) {
  extern __shared__ int s[];
  s[threadIdx.x] = node * N + threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int i = 0; i < N; i++) t += s[i];
    sums[node] = t;
    depth_of[node] = depth;
    if (depth < 3) {
      cudaStream_t st;
      cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
      for (int c = 0; c < 2; c++)
        tree<N><<<1, N, N * sizeof(int), st>>>(depth_of, sums, 2 * node + 1 + c, depth + 1);
      cudaStreamDestroy(st);
    }
  }
}

// 4. template arguments deduced: a quicksort of any type; qs<double> is
// launched by device code only
template <class T> __device__ void selection(T *d, int l, int r) {
  for (int i = l; i <= r; i++) {
    int m = i;
    for (int j = i + 1; j <= r; j++)
      if (d[j] < d[m]) m = j;
    T v = d[m];
    d[m] = d[i];
    d[i] = v;
  }
}
template <class T> __global__ void qs(T *d, int l, int r, int depth) {
  if (depth >= 16 || r - l <= 4) {
    selection(d, l, r);
    return;
  }
  T pivot = d[(l + r) / 2];
  int i = l, j = r;
  while (i <= j) {
    while (d[i] < pivot) i++;
    while (d[j] > pivot) j--;
    if (i <= j) {
      T t = d[i];
      d[i++] = d[j];
      d[j--] = t;
    }
  }
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  if (l < j) qs<<<1, 1, 0, s1>>>(d, l, j, depth + 1);
  if (i < r) qs<<<1, 1, 0, s2>>>(d, i, r, depth + 1);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}
__global__ void sort_doubles(double *d, int n) { qs<<<1, 1>>>(d, 0, n - 1, 0); }

// 5. from a __device__ function template, by qualified name, with the
// arguments written and deduced; ns::add<long long> only device code names
namespace ns {
template <class T> __global__ void add(T *v, T x) { v[threadIdx.x] += x; }
}
template <class T> __device__ void add_twice(T *v, T x, int n) {
  ns::add<T><<<1, n>>>(v, x);
  ::ns::add<<<1, n>>>(v, (T)(x + 1));
}
__global__ void adder(long long *v, int n) {
  if (threadIdx.x == 0) add_twice(v, 3LL, n);
}

int main() {
  // 1.
  const int n = 100;
  int *v;
  cudaMallocManaged(&v, n * sizeof(int));
  for (int i = 0; i < n; i++) v[i] = i - 7;
  scale<<<(n + 31) / 32, 32>>>(v, n, 3, 0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "scale: %s", cudaGetErrorString(cudaGetLastError()));
  for (int i = 0; i < n; i++) CHECK(v[i] == (i - 7) * 27, "scale: v[%d] = %d, want %d", i, v[i], (i - 7) * 27);

  // 2.
  int *a;
  float *b;
  cudaMallocManaged(&a, 8 * sizeof(int));
  cudaMallocManaged(&b, 8 * sizeof(float));
  put_both<<<1, 1>>>(a, b);
  cudaDeviceSynchronize();
  for (int i = 0; i < 8; i++) {
    CHECK(a[i] == 5 + i, "put(int *): a[%d] = %d", i, a[i]);
    CHECK(b[i] == 3.0f + i, "put(float *): b[%d] = %g", i, b[i]);
  }

  // 3. a binary tree of depth 3: 15 nodes
  int *depth_of, *sums;
  cudaMallocManaged(&depth_of, 15 * sizeof(int));
  cudaMallocManaged(&sums, 15 * sizeof(int));
  for (int i = 0; i < 15; i++) depth_of[i] = sums[i] = -1;
  tree<16><<<1, 16, 16 * sizeof(int)>>>(depth_of, sums, 0, 0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "tree: %s", cudaGetErrorString(cudaGetLastError()));
  for (int i = 0, d = 0; i < 15; i++) {
    if (i == 1 || i == 3 || i == 7) d++;
    CHECK(depth_of[i] == d, "tree: node %d at depth %d, want %d", i, depth_of[i], d);
    CHECK(sums[i] == 16 * 16 * i + 120, "tree: node %d summed %d, want %d", i, sums[i], 16 * 16 * i + 120);
  }

  // 4. unsigned from the host, double from device code
  const int m = 2000;
  unsigned *u;
  double *dd;
  cudaMallocManaged(&u, m * sizeof(unsigned));
  cudaMallocManaged(&dd, m * sizeof(double));
  srand(7);
  for (int i = 0; i < m; i++) {
    u[i] = (unsigned)rand();
    dd[i] = rand() / 1000.0 - 1e6;
  }
  qs<unsigned><<<1, 1>>>(u, 0, m - 1, 0);
  sort_doubles<<<1, 1>>>(dd, m);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "qs: %s", cudaGetErrorString(cudaGetLastError()));
  for (int i = 1; i < m; i++) {
    CHECK(u[i - 1] <= u[i], "qs<unsigned>: u[%d] = %u > u[%d] = %u", i - 1, u[i - 1], i, u[i]);
    CHECK(dd[i - 1] <= dd[i], "qs<double>: d[%d] = %g > d[%d] = %g", i - 1, dd[i - 1], i, dd[i]);
    if (fails > 20) break;
  }

  // 5.
  long long *w;
  cudaMallocManaged(&w, 32 * sizeof(long long));
  for (int i = 0; i < 32; i++) w[i] = i;
  adder<<<1, 4>>>(w, 32);
  cudaDeviceSynchronize();
  for (int i = 0; i < 32; i++) CHECK(w[i] == i + 7, "ns::add: w[%d] = %lld", i, w[i]);

  // 6. the header's: countdown<4> from the host, <3>...<0> from device code
  int *c;
  cudaMallocManaged(&c, 5 * sizeof(int));
  for (int i = 0; i < 5; i++) c[i] = -1;
  countdown<4><<<1, 1>>>(c, 9);
  cudaDeviceSynchronize();
  for (int i = 0; i < 5; i++) CHECK(c[i] == 90 + i, "countdown: c[%d] = %d", i, c[i]);

  CHECK(cudaGetLastError() == cudaSuccess, "an error left");
  if (!fails) printf("PASS\n");
  return fails != 0;
}
