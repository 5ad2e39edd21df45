// uniform_stride.cu: values affine in the lane whose stride is a uniform
// value, not a constant (issue 20: `offset * (2 * thid + 1) - 1`, GPU Gems'
// scan): each keeps the stride as it was where it is declared, so a later
// change of the uniform value it reads does not change it; one kept across
// a barrier; one in a loop whose multiplier doubles; a product of two
// uniform values; a negative one; as other programs spell them (a pitch, a
// parameter, unsigned and 64-bit, a 2-D block's rows). Against the CPU's
// answers, in blocks of 64 (whole rows), 48 (a partial warp), 16 and 16 x 4
// (half rows).
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

// strides as other programs spell them: a pitch (`t * pitch + k`), a
// kernel parameter, unsigned and 64-bit indices, a 2-D block's row times a
// uniform width (half rows), a decreasing index
__global__ void spellings(const int *in, int *out, int step, unsigned ustep, long long lpitch) {
    __shared__ int tile[64 * 5];
    int t = threadIdx.x + threadIdx.y * blockDim.x, nt = blockDim.x * blockDim.y;
    int pitch = nt / 16 + 1;                  // a uniform pitch, not a constant
    for (int k = 0; k < 5 && k < pitch; k++) tile[t * pitch + k] = in[(t + k) % 96];
    __syncthreads();
    int acc = 0;
    for (int k = 0; k < pitch; k++) acc += tile[t * pitch + k] * (k + 1);
    int i = blockIdx.x * nt + t;
    int g = blockIdx.x * nt * step + t * step;          // a parameter's stride
    unsigned u = threadIdx.x * ustep + 1u;               // unsigned
    long long l = (long long)t * lpitch - 3;             // 64-bit
    int r = threadIdx.y * (int)blockDim.x * step + threadIdx.x;   // a row times a uniform width
    int dn = nt - 1 - t * step;                          // decreasing
    out[6 * i + 0] = acc;
    out[6 * i + 1] = in[g % 96];
    out[6 * i + 2] = (int)(u % 1000u);
    out[6 * i + 3] = (int)(l % 100000);
    out[6 * i + 4] = r;
    out[6 * i + 5] = dn;
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
    // spellings: blocks of 64 x 1, 16 x 4 (half rows), 48 x 1
    int *in96;
    cudaMallocManaged(&in96, 96 * sizeof(int));
    for (int j = 0; j < 96; j++) in96[j] = (j * 13 + 5) % 17;
    const int step = 3, lpitch = 7;
    const unsigned ustep = 5u;
    const int dims[3][2] = {{64, 1}, {16, 4}, {48, 1}};
    for (int b = 0; b < 3; b++) {
        int bx = dims[b][0], by = dims[b][1], nt = bx * by;
        spellings<<<nb, dim3(bx, by)>>>(in96, out, step, ustep, lpitch);
        cudaDeviceSynchronize();
        for (int i = 0; i < nb * nt && fails < 5; i++) {
            int t = i % nt, blk = i / nt, tx = t % bx, ty = t / bx, pitch = nt / 16 + 1, acc = 0;
            for (int k = 0; k < pitch; k++) acc += (k < 5 ? in96[(t + k) % 96] : 0) * (k + 1);
            int g = blk * nt * step + t * step;
            int want[6] = {acc, in96[g % 96], (int)((tx * ustep + 1u) % 1000u), (int)(((long long)t * lpitch - 3) % 100000),
                           ty * bx * step + tx, nt - 1 - t * step};
            for (int c = 0; c < 6; c++)
                if (out[6 * i + c] != want[c]) {
                    printf("FAIL spellings, blocks of %dx%d: thread %d value %d: %d, expected %d\n", bx, by, i, c, out[6 * i + c], want[c]);
                    fails++;
                }
        }
    }
    if (fails) return 1;
    printf("PASS\n");
    return 0;
}
