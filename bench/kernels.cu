// kernels.cu: the lecture kernels as benchmarks, built by cucc.
// Usage: ./kernels red_div|red_less|matmul16|matmul32|vadd N reps
// Prints one "TIME ms" line per repetition (kernel work only) and checks
// the result once.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#define BLOCK 512
static double now() { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }

__global__ void red_div(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  unsigned int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    if (t % (2 * stride) == 0) s[t] += s[t + stride];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void red_less(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  unsigned int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  for (unsigned int stride = blockDim.x / 2; stride >= 1; stride >>= 1) {
    __syncthreads();
    if (t < stride) s[t] += s[t + stride];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

template <int T> __global__ void matmul(const float *A, const float *B, float *C, int w) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (int m = 0; m < w / T; ++m) {
    As[ty][tx] = A[row * w + m * T + tx];
    Bs[ty][tx] = B[(m * T + ty) * w + col];
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * w + col] = acc;
}

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  if (argc < 4) { printf("usage: kernels MODE N REPS\n"); return 2; }
  const char *mode = argv[1];
  long n = atol(argv[2]);
  int reps = atoi(argv[3]), ok = 1;
  if (!strncmp(mode, "red", 3)) {
    int nb = (int)((n + BLOCK - 1) / BLOCK);
    float *h = (float *)malloc(n * sizeof(float)), *p = (float *)malloc(nb * sizeof(float)), *d, *o;
    double ref = 0;
    for (long i = 0; i < n; i++) { h[i] = (float)(i % 10) * 0.25f; ref += h[i]; }
    cudaMalloc(&d, n * sizeof(float)); cudaMalloc(&o, nb * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    for (int r = 0; r < reps; r++) {
      double t0 = now();
      if (!strcmp(mode, "red_div")) red_div<<<nb, BLOCK>>>(d, o, (int)n);
      else red_less<<<nb, BLOCK>>>(d, o, (int)n);
      cudaMemcpy(p, o, nb * sizeof(float), cudaMemcpyDeviceToHost);
      double s = 0;
      for (int b = 0; b < nb; b++) s += p[b];
      printf("TIME %.4f\n", now() - t0);
      if (r == 0 && !(s > ref * (1 - 1e-5) && s < ref * (1 + 1e-5))) ok = 0;
    }
  } else if (!strncmp(mode, "matmul", 6)) {
    int w = (int)n, T = atoi(mode + 6);
    size_t sz = (size_t)w * w * sizeof(float);
    float *A = (float *)malloc(sz), *C = (float *)malloc(sz), *dA, *dB, *dC;
    for (long i = 0; i < (long)w * w; i++) A[i] = (float)(i % 7) * 0.5f - 1.0f;
    cudaMalloc(&dA, sz); cudaMalloc(&dB, sz); cudaMalloc(&dC, sz);
    cudaMemcpy(dA, A, sz, cudaMemcpyHostToDevice); cudaMemcpy(dB, A, sz, cudaMemcpyHostToDevice);
    for (int r = 0; r < reps; r++) {
      double t0 = now();
      if (T == 16) matmul<16><<<dim3(w / 16, w / 16), dim3(16, 16)>>>(dA, dB, dC, w);
      else matmul<32><<<dim3(w / 32, w / 32), dim3(32, 32)>>>(dA, dB, dC, w);
      cudaDeviceSynchronize();
      printf("TIME %.4f\n", now() - t0);
    }
    cudaMemcpy(C, dC, sz, cudaMemcpyDeviceToHost);
    for (int k = 0; k < 64; k++) {   /* spot checks */
      int r = (k * 97) % w, c = (k * 31 + 5) % w;
      double s = 0;
      for (int j = 0; j < w; j++) s += (double)A[(long)r * w + j] * A[(long)j * w + c];
      if (fabs(s - C[(long)r * w + c]) > 1e-3 * fabs(s) + 1e-2) ok = 0;
    }
  } else {
    size_t sz = n * sizeof(float);
    float *a = (float *)malloc(sz), *c = (float *)malloc(sz), *da, *db, *dc;
    for (long i = 0; i < n; i++) a[i] = (float)(i % 13);
    cudaMalloc(&da, sz); cudaMalloc(&db, sz); cudaMalloc(&dc, sz);
    cudaMemcpy(da, a, sz, cudaMemcpyHostToDevice); cudaMemcpy(db, a, sz, cudaMemcpyHostToDevice);
    for (int r = 0; r < reps; r++) {
      double t0 = now();
      vadd<<<(int)((n + 255) / 256), 256>>>(da, db, dc, (int)n);
      cudaDeviceSynchronize();
      printf("TIME %.4f\n", now() - t0);
    }
    cudaMemcpy(c, dc, sz, cudaMemcpyDeviceToHost);
    for (long i = 0; i < n; i += 997) if (c[i] != 2 * a[i]) ok = 0;
  }
  printf("%s\n", ok ? "CHECK ok" : "CHECK failed");
  return ok ? 0 : 1;
}
