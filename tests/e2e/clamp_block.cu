// clamp_block.cu: neighbours' coordinates clamped to the image, as image
// kernels spell them (CUDA's max and min, ?:, a user's clamp(), min of a
// max, unsigned), which lowering/clamp.c runs as a copy of the kernel
// without its clamps in the blocks where no thread's clamp bites; and the
// forms around it that must keep their meaning: edge blocks, images smaller
// than a block, an early return, shared memory and barriers, a shuffle, a
// clamp inside a loop over the neighbours, a clamp of the thread's role.
// Each checked against the CPU, on sizes that are not multiples of the block.
// (Also clamps spelled as statements: `int xm = x - 1; if (xm < 0) xm = 0;`.)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void blur_minmax(const int *in, int *out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int xm = max(x - 1, 0), xp = min(x + 1, w - 1);
    int ym = max(y - 1, 0), yp = min(y + 1, h - 1);
    out[y * w + x] = in[ym * w + xm] + 2 * in[ym * w + xp] + 3 * in[y * w + xm] + 5 * in[y * w + xp] +
                     7 * in[yp * w + xm] + 11 * in[yp * w + x] + 13 * in[ym * w + x];
}

__global__ void blur_ternary(const int *in, int *out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        int xl = x - 2 < 0 ? 0 : x - 2;
        int xr = x + 2 >= w ? w - 1 : x + 2;
        int yu = y > 1 ? y - 2 : 0;
        int yd = (y + 2 > h - 1) ? (h - 1) : (y + 2);
        out[y * w + x] = in[y * w + xl] - in[y * w + xr] + 3 * (in[yu * w + x] - in[yd * w + x]);
    }
}

// clamps spelled as statements after the declaration (canon.c folds them)
__global__ void blur_stmts(const int *in, int *out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int xm = x - 1;
    if (xm < 0) xm = 0;
    int xp = x + 1;
    if (xp > w - 1) xp = w - 1;
    int yd = y + 2;
    if (yd < 0) yd = 0;
    else if (yd >= h) yd = h - 1;
    out[y * w + x] = in[y * w + xm] + 2 * in[y * w + xp] + 3 * in[yd * w + x];
}

// the clamped read in a __device__ helper (its body one return): unfolded
// in the copy (bspec.c)
__device__ int at(const int *in, int x, int y, int w, int h) { return in[min(max(y, 0), h - 1) * w + min(max(x, 0), w - 1)]; }
__global__ void blur_devfn(const int *in, int *out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    out[y * w + x] = at(in, x - 1, y, w, h) + 5 * at(in, x + 1, y + 1, w, h) - at(in, x, y - 2, w, h);
}

__device__ int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

__global__ void blur_clampfn(const int *in, int *out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int xa = clampi(x - 3, 0, w - 1), xb = min(max(x + 3, 0), w - 1);
    int yb = clampi(y + 1, 0, h - 1);
    out[y * w + x] = in[y * w + xa] * 2 + in[yb * w + xb];
}

__global__ void row_unsigned(const int *in, int *out, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned l = i > 0 ? i - 1 : 0;
    unsigned r = min(i + 1, n - 1);
    out[i] = in[l] + 10 * in[i] + 100 * in[r];
}

// a tile with a clamped halo in shared memory: barriers on both sides
#define T 16
__global__ void blur_tile(const int *in, int *out, int w, int h) {
    __shared__ int s[T + 2][T + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * T + tx, y = blockIdx.y * T + ty;
    int cx = min(x, w - 1), cy = min(y, h - 1);
    s[ty + 1][tx + 1] = in[cy * w + cx];
    if (tx == 0) s[ty + 1][0] = in[cy * w + max(x - 1, 0)];
    if (tx == T - 1) s[ty + 1][T + 1] = in[cy * w + min(x + 1, w - 1)];
    if (ty == 0) s[0][tx + 1] = in[max(y - 1, 0) * w + cx];
    if (ty == T - 1) s[T + 1][tx + 1] = in[min(y + 1, h - 1) * w + cx];
    __syncthreads();
    if (x < w && y < h) out[y * w + x] = s[ty][tx + 1] + s[ty + 2][tx + 1] + 2 * s[ty + 1][tx] + 3 * s[ty + 1][tx + 2] - s[ty + 1][tx + 1];
}

// a shuffle beside the clamp: every thread of a block runs the same copy
__global__ void shfl_clamp(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[min(i + 1, n - 1)] - in[min(max(i - 1, 0), n - 1)];
    v += __shfl_down_sync(0xffffffffu, v, 1);
    if (i < n) out[i] = v;
}

// a clamp over a loop's variable: between the loop's bounds (bound.c)
__global__ void loop_clamp(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int s = 0;
    for (int d = -2; d <= 2; d++) s += (d + 3) * in[min(max(i + d, 0), n - 1)];
    out[i] = s;
}

// counting down, a bound of a parameter, an inner loop bounded by the
// outer's variable, a step of 2
__global__ void loop_forms(const int *in, int *out, int n, int r) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int s = 0;
    for (int d = r; d >= -r; d--) s += in[d + i < 0 ? 0 : (d + i > n - 1 ? n - 1 : d + i)];
    for (int a = 0; a < 3; a++)
        for (int b = -a; b <= a; b += 2) s += 3 * in[min(i + a + b, n - 1)];
    out[i] = s;
}

// the loop's variable changed in its body: no bounds, no copy
__global__ void loop_moved(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int s = 0;
    for (int d = -2; d <= 2; d++) {
        s += in[min(max(i + d, 0), n - 1)];
        if (in[i] > 400) d++;
    }
    out[i] = s;
}

// a 2-D filter whose taps clamp inside the loops (a box blur's spelling)
__global__ void box_loops(const int *in, int *out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int s = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -2; dx <= 2; dx++) s += (dx + 3 * dy) * in[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)];
    out[y * w + x] = s;
}

// the thread's role clamped: the copy never runs for blocks over 8 threads
__global__ void role_clamp(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = min((int)threadIdx.x, 7);
    if (i < n) out[i] = in[i] * 8 + k;
}

static int cl(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static int bad;
static void check(const char *what, const int *got, const int *want, int n) {
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            printf("FAIL %s: [%d] = %d, expected %d\n", what, i, got[i], want[i]);
            bad++;
            return;
        }
}

static void image(int w, int h, dim3 blk) {
    int n = w * h;
    int *hi = (int *)malloc(n * 4), *ho = (int *)malloc(n * 4), *want = (int *)malloc(n * 4);
    for (int i = 0; i < n; i++) hi[i] = (int)((i * 2654435761u) >> 20) % 1000 - 500;
    int *di, *dout;
    cudaMalloc(&di, n * 4);
    cudaMalloc(&dout, n * 4);
    cudaMemcpy(di, hi, n * 4, cudaMemcpyHostToDevice);
    dim3 grid((w + blk.x - 1) / blk.x, (h + blk.y - 1) / blk.y);
    char what[64];
#define IN(xx, yy) hi[cl(yy, 0, h - 1) * w + cl(xx, 0, w - 1)]
#define RUN(k, g, b, expr)                                                   \
    cudaMemset(dout, 0, n * 4);                                              \
    k<<<g, b>>>(di, dout, w, h);                                             \
    cudaMemcpy(ho, dout, n * 4, cudaMemcpyDeviceToHost);                     \
    for (int y = 0; y < h; y++)                                              \
        for (int x = 0; x < w; x++) want[y * w + x] = (expr);               \
    snprintf(what, sizeof what, "%s %dx%d block %ux%u", #k, w, h, b.x, b.y); \
    check(what, ho, want, n);
    RUN(blur_minmax, grid, blk, IN(x - 1, y - 1) + 2 * IN(x + 1, y - 1) + 3 * IN(x - 1, y) + 5 * IN(x + 1, y) +
                                    7 * IN(x - 1, y + 1) + 11 * IN(x, y + 1) + 13 * IN(x, y - 1))
    RUN(blur_ternary, grid, blk, IN(x - 2, y) - IN(x + 2, y) + 3 * (IN(x, y - 2) - IN(x, y + 2)))
    RUN(blur_clampfn, grid, blk, IN(x - 3, y) * 2 + IN(x + 3, y + 1))
    RUN(blur_stmts, grid, blk, IN(x - 1, y) + 2 * IN(x + 1, y) + 3 * IN(x, y + 2))
    RUN(blur_devfn, grid, blk, IN(x - 1, y) + 5 * IN(x + 1, y + 1) - IN(x, y - 2))
    RUN(box_loops, grid, blk, ({ int t = 0; for (int dy = -1; dy <= 1; dy++) for (int dx = -2; dx <= 2; dx++) t += (dx + 3 * dy) * IN(x + dx, y + dy); t; }))
    dim3 tb(T, T), tg((w + T - 1) / T, (h + T - 1) / T);
    RUN(blur_tile, tg, tb, IN(x, y - 1) + IN(x, y + 1) + 2 * IN(x - 1, y) + 3 * IN(x + 1, y) - IN(x, y))
    cudaFree(di);
    cudaFree(dout);
    free(hi), free(ho), free(want);
}

static void line(int n, int b) {
    int *hi = (int *)malloc(n * 4), *ho = (int *)malloc(n * 4), *want = (int *)malloc(n * 4);
    for (int i = 0; i < n; i++) hi[i] = (int)((i * 40503u) >> 7) % 777 - 300;
    int *di, *dout;
    cudaMalloc(&di, n * 4);
    cudaMalloc(&dout, n * 4);
    cudaMemcpy(di, hi, n * 4, cudaMemcpyHostToDevice);
    int g = (n + b - 1) / b;
    char what[64];
#define A(i) hi[cl(i, 0, n - 1)]
#define RUN1(k, expr)                                                   \
    cudaMemset(dout, 0, n * 4);                                         \
    k<<<g, b>>>(di, dout, n);                                           \
    cudaMemcpy(ho, dout, n * 4, cudaMemcpyDeviceToHost);                \
    for (int i = 0; i < n; i++) want[i] = (expr);                       \
    snprintf(what, sizeof what, "%s n %d block %d", #k, n, b);          \
    check(what, ho, want, n);
    RUN1(row_unsigned, A(i - 1) + 10 * A(i) + 100 * A(i + 1))
    RUN1(loop_clamp, 1 * A(i - 2) + 2 * A(i - 1) + 3 * A(i) + 4 * A(i + 1) + 5 * A(i + 2))
    RUN1(role_clamp, hi[i] * 8 + ((i % b) < 7 ? i % b : 7))
    RUN1(loop_moved, ({ int t = 0; for (int d = -2; d <= 2; d++) { t += A(i + d); if (hi[i] > 400) d++; } t; }))
    cudaMemset(dout, 0, n * 4);
    loop_forms<<<g, b>>>(di, dout, n, 3);
    cudaMemcpy(ho, dout, n * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        int t = 0;
        for (int d = 3; d >= -3; d--) t += A(d + i);
        for (int a = 0; a < 3; a++)
            for (int c = -a; c <= a; c += 2) t += 3 * hi[i + a + c < n - 1 ? i + a + c : n - 1];
        want[i] = t;
    }
    snprintf(what, sizeof what, "loop_forms n %d block %d", n, b);
    check(what, ho, want, n);
    if (b % 32 == 0) {   // (a warp's shuffle: whole warps; lane 31 reads lane 31's own value)
        int wv[4096];
        for (int i = 0; i < g * b; i++) wv[i] = A(i + 1) - A(i - 1);
        RUN1(shfl_clamp, wv[i] + (i % 32 == 31 ? wv[i] : wv[i + 1]))
    }
    cudaFree(di);
    cudaFree(dout);
    free(hi), free(ho), free(want);
}

int main() {
    image(100, 37, dim3(16, 16));   // edge blocks and inner ones
    image(200, 70, dim3(32, 8));
    image(67, 45, dim3(8, 4));     // the general version
    image(5, 3, dim3(16, 16));      // smaller than a block: every block an edge
    image(64, 64, dim3(16, 16));
    line(1000, 128);
    line(1024, 256);
    line(3000, 96);
    line(7, 32);
    line(70, 5);
    if (bad) return 1;
    printf("PASS\n");
    return 0;
}
