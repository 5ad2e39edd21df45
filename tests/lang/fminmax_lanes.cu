// fminmax_lanes.cu: fmaxf, fminf, fmax and fmin in lane loops (on x86
// compares and a select, cucc_dev.h, where gcc would call libm lane by lane)
// give a GPU's results bit for bit, for every pair of special values (NaN,
// infinities, signed zeros, denormals) and many others: the other operand
// where one is NaN, and of two zeros the maximum +0 and the minimum -0 unless
// both are the other, as an H200 gives them (glibc's fmaxf gives its first
// operand there).
#include <cstdio>
#include <cstring>
#include <cmath>
#include <cuda_runtime.h>

__global__ void minmax(const float *a, const float *b, const double *c, const double *d, float *omax, float *omin,
                       double *dmax, double *dmin, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        omax[i] = fmaxf(a[i], b[i]);
        omin[i] = fminf(a[i], b[i]);
        dmax[i] = fmax(c[i], d[i]);
        dmin[i] = fmin(c[i], d[i]);
    }
}

// a GPU's fmax: C's, but of two zeros +0 unless both are -0 (fmin: -0 unless both +0)
template <class T> static T gpu_max(T x, T y) { return x == 0 && y == 0 ? (std::signbit(x) && std::signbit(y) ? x : (T)0) : std::fmax(x, y); }
template <class T> static T gpu_min(T x, T y) { return x == 0 && y == 0 ? (!std::signbit(x) && !std::signbit(y) ? x : -(T)0) : std::fmin(x, y); }

int main() {
    const float sp[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, -NAN, 1e-45f, -1e-45f, 3.4e38f, 2.5f};
    const int ns = sizeof sp / sizeof *sp, n = ns * ns + 1000;
    float *a = new float[n], *b = new float[n];
    double *c = new double[n], *d = new double[n];
    for (int i = 0; i < ns * ns; i++) {
        a[i] = sp[i / ns];
        b[i] = sp[i % ns];
    }
    unsigned s = 12345;
    for (int i = ns * ns; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        a[i] = (float)(int)(s >> 8) / 1000.0f;
        s = s * 1664525u + 1013904223u;
        b[i] = (float)(int)(s >> 8) / 1000.0f;
    }
    for (int i = 0; i < n; i++) c[i] = a[i], d[i] = b[i];
    float *da, *db, *dx, *dn;
    double *dc, *dd, *ex, *en;
    cudaMalloc(&da, n * sizeof(float));
    cudaMalloc(&db, n * sizeof(float));
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dn, n * sizeof(float));
    cudaMalloc(&dc, n * sizeof(double));
    cudaMalloc(&dd, n * sizeof(double));
    cudaMalloc(&ex, n * sizeof(double));
    cudaMalloc(&en, n * sizeof(double));
    cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dc, c, n * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(dd, d, n * sizeof(double), cudaMemcpyHostToDevice);
    minmax<<<(n + 127) / 128, 128>>>(da, db, dc, dd, dx, dn, ex, en, n);
    float *hx = new float[n], *hn = new float[n];
    double *gx = new double[n], *gn = new double[n];
    cudaMemcpy(hx, dx, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(hn, dn, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(gx, ex, n * sizeof(double), cudaMemcpyDeviceToHost);
    cudaMemcpy(gn, en, n * sizeof(double), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n && bad < 10; i++) {
        // (NaN results compared as NaN: its sign and payload are not C's to fix)
        float wx = gpu_max(a[i], b[i]), wn = gpu_min(a[i], b[i]);
        double vx = gpu_max(c[i], d[i]), vn = gpu_min(c[i], d[i]);
        bool ok = (std::isnan(wx) ? std::isnan(hx[i]) : !memcmp(&wx, &hx[i], sizeof wx)) &&
                  (std::isnan(wn) ? std::isnan(hn[i]) : !memcmp(&wn, &hn[i], sizeof wn)) &&
                  (std::isnan(vx) ? std::isnan(gx[i]) : !memcmp(&vx, &gx[i], sizeof vx)) &&
                  (std::isnan(vn) ? std::isnan(gn[i]) : !memcmp(&vn, &gn[i], sizeof vn));
        if (!ok) {
            printf("FAIL at %d: fmaxf(%g, %g) = %g want %g; fminf = %g want %g; fmax = %g want %g; fmin = %g want %g\n", i,
                   a[i], b[i], hx[i], wx, hn[i], wn, gx[i], vx, gn[i], vn);
            bad++;
        }
    }
    if (!bad) printf("PASS\n");
    return bad ? 1 : 0;
}
