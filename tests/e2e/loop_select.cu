// loop_select.cu: divergent loops whose lanes leave one by one (escape-time
// iterations, Collatz counts, a Newton iteration, a search): the lanes
// still in the loop test its condition and update their own scalars as
// selects by the loop's mask in every lane where the values can be
// computed by any lane (lowering: W.mall, W.mblend), and keep branches
// where they cannot (a condition that loads, a store to memory, an integer
// division, a continue and a break); grid-stride loops with an if inside. 1-D and 2-D blocks (half rows of 16),
// sizes not multiples of the block; each checked against the CPU.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void escape(int *out, int w, int h, float x0, float y0, float d, int maxit) {
    int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= w || py >= h) return;
    float cx = x0 + px * d, cy = y0 + py * d, x = 0, y = 0;
    int it = 0;
    while (x * x + y * y <= 4.0f && it < maxit) {
        float t = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = t;
        it++;
    }
    out[py * w + px] = it;
}

// unsigned and 64-bit counters, compound assignments, a do-while
__global__ void collatz(const unsigned *a, int *steps, long long *peak, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long v = a[i], top = v;
    int s = 0;
    do {
        unsigned long long odd = v & 1;
        v = odd ? 3 * v + 1 : v >> 1;
        top = v > top ? v : top;
        s += 1;
    } while (v != 1 && s < 1000);
    steps[i] = s;
    peak[i] = (long long)top;
}

// double precision, a division by a float (may be computed in any lane)
__global__ void newton(const double *a, double *r, int *its, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i] > 1 ? a[i] : 1, e = 1;
    int k = 0;
    for (; e > 1e-12 && k < 100; k++) {
        double nx = 0.5 * (x + a[i] / x);
        e = nx > x ? nx - x : x - nx;
        x = nx;
    }
    r[i] = x;
    its[i] = k;
}

// a condition that loads, an integer division, a store inside, a continue
// and a break: branches kept
__global__ void search(const int *a, int *pos, int *cnt, int n, int m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int j = i, c = 0, q = 7;
    while (j < m && a[j] != i % 97) {
        j += 1 + (a[j] & 3);
        if (a[j % m] == 13) continue;
        q = q / (1 + (a[j % m] & 1));
        c++;
        if (c > 50) break;
    }
    pos[i] = j;
    cnt[i] = c * 10 + q;
}

// grid-stride loops: an if over a prefix of the loop's lanes inside (reduce6's
// `if (i + blockSize < n)`: a run within the run), and one whose if reads
// memory (a warp at a time under masks, its reads prefetched some trips
// ahead)
__global__ void pairs(const int *a, long long *out, int n, int half) {
    long long s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        s += a[i];
        if (i + half < n) {
            s += 2 * a[i + half];
            s -= 1;
        }
    }
    atomicAdd((unsigned long long *)out, (unsigned long long)s);
}

__global__ void positives(const int *a, long long *out, int n) {
    long long s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        if (a[i] > 50) s += a[i];
    atomicAdd((unsigned long long *)out, (unsigned long long)s);
}

static int bad;
#define CHECK(what, i, got, want)                                                        \
    if ((got) != (want)) {                                                               \
        if (!bad++) printf("FAIL %s [%d]: %lld, expected %lld\n", what, i, (long long)(got), (long long)(want)); \
    }

int main() {
    // escape time on 2-D blocks: half rows (16 x 8), whole rows (32 x 4), others (8 x 8)
    int w = 150, h = 77, maxit = 200;
    float x0 = -2.0f, y0 = -1.2f, d = 2.6f / w;
    int *dout, *hout = (int *)malloc(w * h * 4);
    cudaMalloc(&dout, w * h * 4);
    dim3 bs[] = {dim3(16, 8), dim3(32, 4), dim3(8, 8), dim3(16, 16)};
    for (int b = 0; b < 4; b++) {
        int differ = 0;
        dim3 g((w + bs[b].x - 1) / bs[b].x, (h + bs[b].y - 1) / bs[b].y);
        escape<<<g, bs[b]>>>(dout, w, h, x0, y0, d, maxit);
        cudaMemcpy(hout, dout, w * h * 4, cudaMemcpyDeviceToHost);
        for (int py = 0; py < h; py++)
            for (int px = 0; px < w; px++) {
                float cx = x0 + px * d, cy = y0 + py * d, x = 0, y = 0;
                int it = 0;
                while (x * x + y * y <= 4.0f && it < maxit) {
                    float t = x * x - y * y + cx;
                    y = 2.0f * x * y + cy;
                    x = t;
                    it++;
                }
                differ += hout[py * w + px] != it;   // (contracted a * b + c: a boundary pixel's count may move)
            }
        if (differ * 200 > w * h) CHECK("escape: differing pixels", b, differ, 0);
    }
    int n = 3001, m = 5000;
    unsigned *ha = (unsigned *)malloc(n * 4), *da;
    int *hs = (int *)malloc(n * 4), *ds;
    long long *hp = (long long *)malloc(n * 8), *dp;
    for (int i = 0; i < n; i++) ha[i] = 1 + (i * 2654435761u) % 100000;
    cudaMalloc(&da, n * 4);
    cudaMalloc(&ds, n * 4);
    cudaMalloc(&dp, n * 8);
    cudaMemcpy(da, ha, n * 4, cudaMemcpyHostToDevice);
    collatz<<<(n + 127) / 128, 128>>>(da, ds, dp, n);
    cudaMemcpy(hs, ds, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(hp, dp, n * 8, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        unsigned long long v = ha[i], top = v;
        int s = 0;
        do {
            v = (v & 1) ? 3 * v + 1 : v >> 1;
            top = v > top ? v : top;
            s++;
        } while (v != 1 && s < 1000);
        CHECK("collatz steps", i, hs[i], s);
        CHECK("collatz peak", i, hp[i], (long long)top);
    }
    double *hd = (double *)malloc(n * 8), *hr = (double *)malloc(n * 8), *dd, *dr;
    for (int i = 0; i < n; i++) hd[i] = 0.5 + i * 3.7;
    cudaMalloc(&dd, n * 8);
    cudaMalloc(&dr, n * 8);
    cudaMemcpy(dd, hd, n * 8, cudaMemcpyHostToDevice);
    newton<<<(n + 95) / 96, 96>>>(dd, dr, ds, n);
    cudaMemcpy(hr, dr, n * 8, cudaMemcpyDeviceToHost);
    cudaMemcpy(hs, ds, n * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        double x = hd[i] > 1 ? hd[i] : 1, e = 1;
        int k = 0;
        for (; e > 1e-12 && k < 100; k++) {
            double nx = 0.5 * (x + hd[i] / x);
            e = nx > x ? nx - x : x - nx;
            x = nx;
        }
        CHECK("newton its", i, hs[i], k);
        if (hr[i] != x) CHECK("newton root", i, (long long)(hr[i] * 1e6), (long long)(x * 1e6));
    }
    int *hm = (int *)malloc(m * 4), *dm, *dc, *hc = (int *)malloc(n * 4);
    for (int i = 0; i < m; i++) hm[i] = (int)((i * 40503u) >> 3) % 100;
    cudaMalloc(&dm, m * 4);
    cudaMalloc(&dc, n * 4);
    cudaMemcpy(dm, hm, m * 4, cudaMemcpyHostToDevice);
    search<<<(n + 63) / 64, 64>>>(dm, ds, dc, n, m);
    cudaMemcpy(hs, ds, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(hc, dc, n * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        int j = i, c = 0, q = 7;
        while (j < m && hm[j] != i % 97) {
            j += 1 + (hm[j] & 3);
            if (hm[j % m] == 13) continue;
            q = q / (1 + (hm[j % m] & 1));
            c++;
            if (c > 50) break;
        }
        CHECK("search pos", i, hs[i], j);
        CHECK("search count", i, hc[i], c * 10 + q);
    }
    long long *dsum, hsum;
    cudaMalloc(&dsum, 8);
    int halves[] = {0, 1, 100, 4999, 5000, 7000};
    for (int h = 0; h < 6; h++)
        for (int g = 1; g <= 7; g += 3) {
            cudaMemset(dsum, 0, 8);
            pairs<<<g, 96>>>(dm, dsum, m, halves[h]);
            cudaMemcpy(&hsum, dsum, 8, cudaMemcpyDeviceToHost);
            long long want = 0;
            for (int i = 0; i < m; i++) want += hm[i] + (i + halves[h] < m ? 2LL * hm[i + halves[h]] - 1 : 0);
            CHECK("pairs", h * 10 + g, hsum, want);
        }
    cudaMemset(dsum, 0, 8);
    positives<<<5, 128>>>(dm, dsum, m);
    cudaMemcpy(&hsum, dsum, 8, cudaMemcpyDeviceToHost);
    long long wantp = 0;
    for (int i = 0; i < m; i++) wantp += hm[i] > 50 ? hm[i] : 0;
    CHECK("positives", 0, hsum, wantp);
    if (bad) return 1;
    printf("PASS\n");
    return 0;
}
