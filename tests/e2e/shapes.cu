// shapes.cu: values whose shape the lowering finds however they are spelled
// (issue 20): affine induction variables, loops whose condition keeps a
// run of lanes (prefix or suffix), values set inside a divergent branch,
// strided indices. Each kernel runs under block shapes that take every
// version of a region (1-D whole warps, whole-row 2-D, half rows, a
// partial warp), checked against the CPU.
#include <cstdio>
#include <cstdlib>

// grid-stride: i affine, `i < n` a prefix of lanes at every iteration
__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}
// the same with the index in a variable of its own, unsigned, and <=
__global__ void saxpy2(unsigned n, const float *x, float *y) {
  unsigned stride = blockDim.x * gridDim.x;
  for (unsigned i = threadIdx.x + blockIdx.x * blockDim.x; i + 1 <= n; i += stride) {
    unsigned j = i;
    y[j] = y[j] + 2 * x[j];
  }
}
// counting down: `i >= lo` keeps a suffix of lanes
__global__ void down(int lo, int *out) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int c = 0;
  for (int i = 100 + t; i >= lo; i -= 7) c++;
  out[blockIdx.x * blockDim.x * blockDim.y + t] = c;
}
// a loop and a constant inside a divergent branch: one value for its lanes
__global__ void branch(const int *in, int *out, int m) {
  int t = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
  int r = 0;
  if (threadIdx.x % 3 != 1) {
    int off = 16;
    for (int k = 0; k < m; k++) r += in[(t + k * off) % 1000];
  }
  out[t] = r;
}
// strided indices: 2 * t and t * 3 + 1
__global__ void strided(const int *in, int *out) {
  int t = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
  int i = 2 * t, j = t * 3 + 1;
  out[t] = in[i] + in[j];
}

static int fails;
static void expect(const char *what, bool ok) {
  if (!ok && fails++ < 10) printf("FAIL %s\n", what);
}

int main() {
  const int N = 10007, T = 4096;
  float *x, *y;
  int *in, *out;
  cudaMallocManaged(&x, N * sizeof(float));
  cudaMallocManaged(&y, N * sizeof(float));
  cudaMallocManaged(&in, 4 * T * sizeof(int));
  cudaMallocManaged(&out, T * sizeof(int));
  for (int i = 0; i < 4 * T; i++) in[i] = (i * 7919) % 1009 - 500;
  dim3 shapes[] = {dim3(64), dim3(96), dim3(32, 2), dim3(16, 4), dim3(33), dim3(8, 3)};
  for (dim3 b : shapes) {
    int nt = b.x * b.y;
    char tag[64];
    snprintf(tag, sizeof tag, "block %ux%u", b.x, b.y);
    for (int i = 0; i < N; i++) { x[i] = i % 13; y[i] = 1; }
    saxpy<<<5, b.x>>>(N, 2.0f, x, y);
    saxpy2<<<3, b.x>>>(N, x, y);
    cudaDeviceSynchronize();
    bool ok = true;
    for (int i = 0; i < N; i++) ok &= y[i] == 1 + 4.0f * (i % 13);
    expect(tag, ok);
    int nb = T / nt;
    down<<<nb, b>>>(37, out);
    cudaDeviceSynchronize();
    ok = true;
    for (int k = 0; k < nb * nt; k++) {
      int t = k % nt, c = 0;
      for (int i = 100 + t; i >= 37; i -= 7) c++;
      ok &= out[k] == c;
    }
    expect(tag, ok);
    branch<<<nb, b>>>(in, out, 5);
    cudaDeviceSynchronize();
    ok = true;
    for (int t = 0; t < nb * nt; t++) {
      int r = 0;
      if ((t % nt) % b.x % 3 != 1)
        for (int k = 0; k < 5; k++) r += in[(t + k * 16) % 1000];
      ok &= out[t] == r;
    }
    expect(tag, ok);
    strided<<<nb, b>>>(in, out);
    cudaDeviceSynchronize();
    ok = true;
    for (int t = 0; t < nb * nt; t++) ok &= out[t] == in[2 * t] + in[3 * t + 1];
    expect(tag, ok);
  }
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}
