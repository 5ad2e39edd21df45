// uniform_stride.cu: values affine in the lane whose stride is a uniform
// value, not a constant (issue 20: `offset * (2 * thid + 1) - 1`, GPU Gems'
// scan): each keeps the stride as it was where it is declared, so a later
// change of the uniform value it reads does not change it; one kept across
// a barrier; one in a loop whose multiplier doubles; a product of two
// uniform values; a negative one. Against the CPU's answers, in blocks of
// 64 (whole rows), 48 (a partial warp) and 16 (half rows).
#include <cstdio>

#define ELEMS 128

// the work-efficient exclusive scan of one block's 2 * blockDim.x elements
__global__ void prescan(const int *in, int *out) {
    __shared__ int temp[ELEMS];
    int thid = threadIdx.x, n = 2 * blockDim.x, base = blockIdx.x * n;
    temp[2 * thid] = in[base + 2 * thid];
    temp[2 * thid + 1] = in[base + 2 * thid + 1];
    int offset = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0) temp[n - 1] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    out[base + 2 * thid] = temp[2 * thid];
    out[base + 2 * thid + 1] = temp[2 * thid + 1];
}

__global__ void strides(int *out, int k, int m) {
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    int off = blockDim.x / 16 + k;       // uniform
    int x = off * (2 * t + 1) - 1;       // stride 2 * off (kept across the block-level store below)
    off = off * 3;
    int y = k * m * t + 7;               // a product of uniform values
    int z = 5 - m * t;                   // negative
    int w = m * (t - 3) * 4;
    int s = 0;
    for (int q = 1; q <= 8; q *= 2) {
        int g = q;                       // uniform, one per iteration
        int a = g * t + g;               // its multiplier changes each iteration
        g = g + 100;                     // after a's declaration: a keeps g's old value
        s += a + g;
    }
    out[8 * i + 0] = x;
    out[8 * i + 1] = off;
    out[8 * i + 2] = y;
    out[8 * i + 3] = z;
    out[8 * i + 4] = w;
    out[8 * i + 5] = s;
    int kk = k;
    int kept = kk * t;                   // kept across the barrier (kk changes)
    kk += 1;
    __syncthreads();
    out[8 * i + 6] = kept;
    out[8 * i + 7] = y + kk;
}

int main() {
    int fails = 0;
    const int nb = 6, k = 3, m = -2;
    int *in, *out;
    cudaMallocManaged(&in, nb * ELEMS * sizeof(int));
    cudaMallocManaged(&out, 8 * nb * 64 * sizeof(int) + nb * ELEMS * sizeof(int));
    for (int i = 0; i < nb * ELEMS; i++) in[i] = (i * 7 + 3) % 10;
    const int sizes[] = {64, 48, 16};
    for (int b = 0; b < 3; b++) {
        int bs = sizes[b], n = 2 * bs;
        if (bs == 64 || bs == 16) {   // (the scan: blocks of a power of two)
            prescan<<<nb, bs>>>(in, out);
            cudaDeviceSynchronize();
            for (int blk = 0; blk < nb && fails < 5; blk++) {
                int acc = 0;
                for (int j = 0; j < n; j++) {
                    if (out[blk * n + j] != acc) {
                        printf("FAIL scan, blocks of %d: block %d element %d: %d, expected %d\n", bs, blk, j, out[blk * n + j], acc);
                        fails++;
                        break;
                    }
                    acc += in[blk * n + j];
                }
            }
        }
        strides<<<nb, bs>>>(out, k, m);
        cudaDeviceSynchronize();
        for (int i = 0; i < nb * bs && fails < 5; i++) {
            int t = i % bs, off = bs / 16 + k, s = 0;
            for (int q = 1; q <= 8; q *= 2) s += q * t + q + q + 100;
            int x = off * (2 * t + 1) - 1, y = k * m * t + 7;
            int want[8] = {x, off * 3, y, 5 - m * t, m * (t - 3) * 4, s, k * t, y + k + 1};
            for (int c = 0; c < 8; c++)
                if (out[8 * i + c] != want[c]) {
                    printf("FAIL strides, blocks of %d: thread %d value %d: %d, expected %d\n", bs, i, c, out[8 * i + c], want[c]);
                    fails++;
                }
        }
    }
    if (fails) return 1;
    printf("PASS\n");
    return 0;
}
