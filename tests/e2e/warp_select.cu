// warp_select.cu: divergent ifs whose arms only assign the lanes' own
// scalars run as selects in every lane (issue 20: CUB's spelling of a
// shuffle tree, `if (lane + offset < 32) val += other;`, ran as a loop over
// a run of varying length). Each against the CPU's answer: the tree with
// offsets going up, in a __device__ function and inline, on ints and
// floats; an arg-max with an else arm; an arm whose condition reads what
// another assignment writes (`if (x < 5) { y += x; x += 10; }`); integer
// division guarded by its test (`if (d != 0) q /= d;`, never a select: a
// lane with d == 0 would trap); a compound assignment converting (int +=
// float). Under every version (CUCC_VERSIONS).
#include <cstdio>
#include <cstdlib>

template <typename T>
__device__ T warp_sum_up(T val) {
    unsigned lane = threadIdx.x % 32;
    for (int offset = 1; offset < 32; offset <<= 1) {
        T other = __shfl_down_sync(0xffffffffu, val, offset);
        if (lane + offset < 32) val += other;
    }
    return val;   // lane 0: the warp's sum
}

__global__ void sums(const int *a, const float *f, int *isum, float *fsum, int *inl) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = warp_sum_up(a[i]);
    float w = warp_sum_up(f[i]);
    // the same tree inline, a lane id from the block's thread index
    int u = a[i], lane = threadIdx.x & 31;
    for (int o = 1; o <= 16; o *= 2) {
        int t = __shfl_down_sync(0xffffffffu, u, o);
        if (lane + o <= 31) u = u + t;
    }
    if (lane == 0) {
        isum[i / 32] = v;
        fsum[i / 32] = w;
        inl[i / 32] = u;
    }
}

__global__ void misc(const int *a, int *amax, int *aidx, int *cnt, int *ys, int *qs, int *conv, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int m = -1000000, idx = -1, c = 0;
    for (int k = 0; k < 8; k++) {
        int x = a[(i * 8 + k) % n];
        if (x > m) {
            m = x;
            idx = k;
        } else
            c += 1;
    }
    amax[i] = m;
    aidx[i] = idx;
    cnt[i] = c;
    int x = a[i] % 9, y = 0;
    for (int k = 0; k < 3; k++)
        if (x < 5) {
            y += x;
            x += 10;
        }
    ys[i] = y * 100 + x;
    int q = 1000 + i, d = a[i] % 4;
    if (d != 0) q /= d;
    qs[i] = q;
    int s = i;
    float h = 0.5f * (a[i] % 3);
    if (i % 3 == 1) s += h;
    conv[i] = s;
}

int main() {
    const int n = 32 * 64;
    int *a, *isum, *inl, *amax, *aidx, *cnt, *ys, *qs, *conv;
    float *f, *fsum;
    cudaMallocManaged(&a, n * sizeof(int));
    cudaMallocManaged(&f, n * sizeof(float));
    cudaMallocManaged(&isum, n / 32 * sizeof(int));
    cudaMallocManaged(&inl, n / 32 * sizeof(int));
    cudaMallocManaged(&fsum, n / 32 * sizeof(float));
    cudaMallocManaged(&amax, n * sizeof(int));
    cudaMallocManaged(&aidx, n * sizeof(int));
    cudaMallocManaged(&cnt, n * sizeof(int));
    cudaMallocManaged(&ys, n * sizeof(int));
    cudaMallocManaged(&qs, n * sizeof(int));
    cudaMallocManaged(&conv, n * sizeof(int));
    for (int i = 0; i < n; i++) {
        a[i] = (int)((i * 2654435761u) >> 20) % 1000 - 300;
        f[i] = (float)(a[i] % 16);   // small integers: exact in any order
    }
    int fails = 0;
    for (int b = 0; b < 2; b++) {   // blocks of 64 (whole rows) and 96 threads
        int bs = b ? 96 : 64;
        sums<<<n / bs, bs>>>(a, f, isum, fsum, inl);
        misc<<<(n + bs - 1) / bs, bs>>>(a, amax, aidx, cnt, ys, qs, conv, n - 5);
        cudaDeviceSynchronize();
        for (int w = 0; w < n / 32; w++) {
            int s = 0;
            float t = 0;
            for (int l = 0; l < 32; l++) s += a[w * 32 + l], t += f[w * 32 + l];
            if (isum[w] != s || inl[w] != s || fsum[w] != t) {
                printf("FAIL block %d warp %d: sums %d %d %g, expected %d %g\n", bs, w, isum[w], inl[w], fsum[w], s, t);
                fails++;
                break;
            }
        }
        for (int i = 0; i < n - 5; i++) {
            int m = -1000000, idx = -1, c = 0;
            for (int k = 0; k < 8; k++) {
                int x = a[(i * 8 + k) % (n - 5)];
                if (x > m) m = x, idx = k;
                else c += 1;
            }
            int x = a[i] % 9, y = 0;
            for (int k = 0; k < 3; k++)
                if (x < 5) y += x, x += 10;
            int q = 1000 + i, d = a[i] % 4;
            if (d != 0) q /= d;
            int s = i;
            float h = 0.5f * (a[i] % 3);
            if (i % 3 == 1) s += h;
            if (amax[i] != m || aidx[i] != idx || cnt[i] != c || ys[i] != y * 100 + x || qs[i] != q || conv[i] != s) {
                printf("FAIL block %d thread %d: %d %d %d %d %d %d, expected %d %d %d %d %d %d\n", bs, i, amax[i], aidx[i],
                       cnt[i], ys[i], qs[i], conv[i], m, idx, c, y * 100 + x, q, s);
                fails++;
                break;
            }
        }
    }
    if (fails) return 1;
    printf("PASS\n");
    return 0;
}
