// Block-level bounds tests (lowering/bound.c) at their edges: conditions
// whose block test must fail where some thread's arithmetic wraps or
// rounds, or where only some threads pass; each answer checked against
// the same expression on the host, for blocks that pass whole, in part
// and not at all (16 x 16 blocks over a 64 x 64 grid of threads, sizes
// that cut blocks). A block-level if around a barrier that whole blocks
// agree on (rows below a multiple of 16) takes the test's way too.
#include <cstdio>
#include <cstdlib>

#define NC 11

__host__ __device__ static int conds(int j, int tx, int ty, int row, int col, int n, int m) {
    switch (j) {
    case 0: return col < n && row < m;
    case 1: return tx - 4 < n - 36;                       // negative values
    case 2: return (unsigned)(col - 70) < (unsigned)n;     // wraps: none passes
    case 3: return row * 3 / 2 < n;                        // division rounds
    case 4: return col % 5 + row < m;
    case 5: return (col >> 1) < n - 10 && (col & 7) < 6;
    case 6: return -row > -m;                              // row < m
    case 7: return row != m;
    case 8: return col < n || row < m;
    case 9: return (long long)col * 100000 < (long long)n * 100000;
    case 10: return (short)(col * 1000) < n * 1000;        // wraps in a short
    }
    return 0;
}

__global__ void each(int *out, int n, int m) {
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * blockDim.y + ty, col = blockIdx.x * blockDim.x + tx;
    int *o = out + (row * 64 + col) * NC;
    if (col < n && row < m) o[0] = 1; else o[0] = 2;
    if (tx - 4 < n - 36) o[1] = 1; else o[1] = 2;
    if ((unsigned)(col - 70) < (unsigned)n) o[2] = 1; else o[2] = 2;
    if (row * 3 / 2 < n) o[3] = 1; else o[3] = 2;
    if (col % 5 + row < m) o[4] = 1; else o[4] = 2;
    if ((col >> 1) < n - 10 && (col & 7) < 6) o[5] = 1; else o[5] = 2;
    if (-row > -m) o[6] = 1; else o[6] = 2;
    if (row != m) o[7] = 1; else o[7] = 2;
    if (col < n || row < m) o[8] = 1; else o[8] = 2;
    o[9] = (long long)col * 100000 < (long long)n * 100000 ? 1 : 2;
    o[10] = (short)(col * 1000) < n * 1000 ? 1 : 2;
}

// a block-level if with a barrier inside, which whole blocks agree on
__global__ void agree(int *out, const int *in, int m2) {
    __shared__ int s[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    if (row < m2) {
        s[ty][tx] = in[row * 64 + col];
        __syncthreads();
        out[row * 64 + col] = s[tx][ty] + 1;
    } else {
        out[row * 64 + col] = -1;
    }
}

int main() {
    int *out, *in, *out2;
    cudaMallocManaged(&out, 64 * 64 * NC * sizeof(int));
    cudaMallocManaged(&in, 64 * 64 * sizeof(int));
    cudaMallocManaged(&out2, 64 * 64 * sizeof(int));
    for (int i = 0; i < 64 * 64; i++) in[i] = i * 7 % 1000;
    static const int sizes[][2] = {{40, 23}, {64, 64}, {16, 48}, {0, 0}, {100, 7}, {36, 36}};
    int bad = 0;
    for (int s = 0; s < 6; s++) {
        int n = sizes[s][0], m = sizes[s][1];
        cudaMemset(out, 0, 64 * 64 * NC * sizeof(int));
        each<<<dim3(4, 4), dim3(16, 16)>>>(out, n, m);
        cudaDeviceSynchronize();
        for (int row = 0; row < 64; row++)
            for (int col = 0; col < 64; col++)
                for (int j = 0; j < 11; j++) {
                    int want = conds(j, col % 16, row % 16, row, col, n, m) ? 1 : 2;
                    int got = out[(row * 64 + col) * NC + j];
                    if (got != want && bad++ < 10)
                        printf("FAIL: n %d m %d, condition %d at row %d col %d: %d, expected %d\n", n, m, j, row, col, got, want);
                }
    }
    for (int m2 = 0; m2 <= 64; m2 += 16) {
        agree<<<dim3(4, 4), dim3(16, 16)>>>(out2, in, m2);
        cudaDeviceSynchronize();
        for (int row = 0; row < 64; row++)
            for (int col = 0; col < 64; col++) {
                int r0 = row / 16 * 16, c0 = col / 16 * 16;
                int want = row < m2 ? in[(r0 + col % 16) * 64 + c0 + row % 16] + 1 : -1;
                if (out2[row * 64 + col] != want && bad++ < 10)
                    printf("FAIL: agree m2 %d at row %d col %d: %d, expected %d\n", m2, row, col, out2[row * 64 + col], want);
            }
    }
    if (!bad) printf("PASS\n");
    return bad != 0;
}
