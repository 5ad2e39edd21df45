// math.cu: the CUDA math library in device code, float and double forms:
// sqrt exp log pow sin cos fabs floor ceil fmin fmax rsqrt, the fast
// intrinsics __expf and __fdividef, and integer min max abs. Compared to the
// host's libm with a tolerance (the fast intrinsics with a looser one).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

#define NF 15   // float results
#define ND 12   // double results
#define NI 6    // int results

__global__ void mathk(const float *in, float *of, double *od, int *oi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i], ax = fabsf(x) + 0.5f;
  float *f = of + i * NF;
  f[0] = sqrtf(ax);       f[1] = expf(x * 0.1f);  f[2] = logf(ax);
  f[3] = powf(ax, 1.7f);  f[4] = sinf(x);         f[5] = cosf(x);
  f[6] = fabsf(x);        f[7] = floorf(x * 0.3f); f[8] = ceilf(x * 0.3f);
  f[9] = fminf(x, 1.5f);  f[10] = fmaxf(x, -2.5f); f[11] = rsqrtf(ax);
  f[12] = __expf(x * 0.05f);
  f[13] = __fdividef(x, ax);
  f[14] = sqrtf(x * x + 1.0f) - expf(-ax) * cosf(x * x);
  double dx = x * 1.25, dax = fabs(dx) + 0.5;
  double *d = od + i * ND;
  d[0] = sqrt(dax);       d[1] = exp(dx * 0.1);   d[2] = log(dax);
  d[3] = pow(dax, 1.7);   d[4] = sin(dx);         d[5] = cos(dx);
  d[6] = fabs(dx);        d[7] = floor(dx * 0.3); d[8] = ceil(dx * 0.3);
  d[9] = fmin(dx, 1.5) + fmax(dx, -2.5);
  d[10] = rsqrt(dax);
  d[11] = log(exp(dx * 0.01)) + sin(dx) * sin(dx) + cos(dx) * cos(dx);
  int k = (int)(x * 10.0f), *r = oi + i * NI;
  r[0] = min(k, 7); r[1] = max(k, -7); r[2] = abs(k);
  r[3] = min(i, 100) + max(-i, -50);
  r[4] = (int)min(1000000u, (unsigned)i * 3000u);
  r[5] = abs(min(k, -k)) - max(abs(k - 3), 2);
}

static int ferr(double g, double w, double tol, int i, const char *what) {
  if (fabs(g - w) <= tol * fmax(1.0, fabs(w))) return 0;
  printf("thread %d: %s = %.9g, want %.9g\n", i, what, g, w);
  return 1;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  float *hin = (float *)malloc(n * sizeof(float)), *hf = (float *)malloc(n * NF * sizeof(float));
  double *hd = (double *)malloc(n * ND * sizeof(double));
  int *hi = (int *)malloc(n * NI * sizeof(int));
  for (int i = 0; i < n; i++) hin[i] = (float)((i * 37) % 1001 - 500) / 37.0f;
  float *din, *df; double *dd; int *di;
  CHECK(cudaMalloc(&din, n * sizeof(float)));
  CHECK(cudaMalloc(&df, n * NF * sizeof(float)));
  CHECK(cudaMalloc(&dd, n * ND * sizeof(double)));
  CHECK(cudaMalloc(&di, n * NI * sizeof(int)));
  CHECK(cudaMemcpy(din, hin, n * sizeof(float), cudaMemcpyHostToDevice));
  mathk<<<(n + 127) / 128, 128>>>(din, df, dd, di, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hf, df, n * NF * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hd, dd, n * ND * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hi, di, n * NI * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  const char *fn[NF] = {"sqrtf", "expf", "logf", "powf", "sinf", "cosf", "fabsf", "floorf",
                        "ceilf", "fminf", "fmaxf", "rsqrtf", "__expf", "__fdividef", "mix"};
  const char *dn[ND] = {"sqrt", "exp", "log", "pow", "sin", "cos", "fabs", "floor", "ceil",
                        "fmin+fmax", "rsqrt", "identity"};
  for (int i = 0; i < n && bad < 10; i++) {
    double x = hin[i], ax = fabs(x) + 0.5;
    double wf[NF] = {sqrt(ax), exp(x * 0.1), log(ax), pow(ax, (double)1.7f), sin(x), cos(x),
                     fabs(x), floor((double)(hin[i] * 0.3f)), ceil((double)(hin[i] * 0.3f)),
                     fmin(x, 1.5), fmax(x, -2.5), 1.0 / sqrt(ax), exp(x * 0.05), x / ax,
                     sqrt(x * x + 1.0) - exp(-ax) * cos(x * x)};
    for (int k = 0; k < NF; k++) {
      double tol = k == 12 || k == 13 ? 1e-3 : k == 14 ? 1e-3 : 2e-6;
      bad += ferr(hf[i * NF + k], wf[k], tol, i, fn[k]);
    }
    double dx = hin[i] * 1.25, dax = fabs(dx) + 0.5;
    double wd[ND] = {sqrt(dax), exp(dx * 0.1), log(dax), pow(dax, 1.7), sin(dx), cos(dx),
                     fabs(dx), floor(dx * 0.3), ceil(dx * 0.3), fmin(dx, 1.5) + fmax(dx, -2.5),
                     1.0 / sqrt(dax), dx * 0.01 + 1.0};
    for (int k = 0; k < ND; k++) bad += ferr(hd[i * ND + k], wd[k], 1e-12, i, dn[k]);
    int kk = (int)(hin[i] * 10.0f);
    long long r4 = (long long)i * 3000 < 1000000 ? i * 3000 : 1000000;
    int wi[NI] = {kk < 7 ? kk : 7, kk > -7 ? kk : -7, kk < 0 ? -kk : kk,
                  (i < 100 ? i : 100) + (-i > -50 ? -i : -50), (int)r4,
                  (kk < 0 ? -kk : kk) - ((kk - 3 < 0 ? 3 - kk : kk - 3) > 2 ? (kk - 3 < 0 ? 3 - kk : kk - 3) : 2)};
    for (int k = 0; k < NI; k++)
      if (hi[i * NI + k] != wi[k] && bad++ < 10)
        printf("thread %d: int r[%d] = %d, want %d\n", i, k, hi[i * NI + k], wi[k]);
  }
  cudaFree(din); cudaFree(df); cudaFree(dd); cudaFree(di);
  if (bad) { printf("%d mismatches\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}
