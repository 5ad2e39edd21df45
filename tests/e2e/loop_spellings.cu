// loop_spellings.cu: the tiled matmul's inner product spelled as people
// write it, each as fast as `for (int k = 0; k < 16; ++k)` (issue 20): the
// loop's variable declared before it, a while loop, a do-while, the
// increment in the body; the product in a __device__ function given the
// tile's row as a pointer (`As[ty]`, `&As[ty][0]`) and the column as an
// integer (`tx`, `2 * tx` over a tile twice as wide), or walking two
// pointers. Tiles of 16 x 16 (half rows, two warps at a time), 16 x 6 (half
// rows one warp at a time), 32 x 8 (whole rows) and, under CUCC_VERSIONS,
// every version. Each answer against the CPU's.
#include <cstdio>
#include <cstdlib>
#include <cmath>

template <int TW>
__device__ float dot_rc(const float *row, float (*cols)[TW], int c) {
    float s = 0;
    for (int k = 0; k < TW; ++k)
        s += row[k] * cols[k][c];
    return s;
}

// the column every other one of a tile twice as wide (stride 2 in the lane)
template <int TW>
__device__ float dot_even(const float *row, float (*cols)[2 * TW], int c2) {
    float s = 0;
    int k = 0;
    while (k < TW) {
        s += row[k] * cols[k][c2];
        k++;
    }
    return s;
}

// two pointers walked along the row and down the column
template <int TW>
__device__ float dot_walk(const float *a, const float *b) {
    float s = 0;
    for (int k = 0; k < TW; k++) {
        s += *a * *b;
        a++;
        b += TW;
    }
    return s;
}

// spelling: 0 for (k declared before), 1 while, 2 do-while, 3 increment in
// the body, 4 dot_rc(As[ty], ...), 5 dot_rc(&As[ty][0], ...), 6 dot_even,
// 7 dot_walk
template <int TW, int TH>
__global__ void mm(const float *A, const float *B, float *C, int n, int spelling) {
    __shared__ float As[TH][TW], Bs[TW][TW], B2[TW][2 * TW];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TH + ty, col = blockIdx.x * TW + tx;
    float acc = 0, bias = 0.5f;
    for (int m = 0; m < n / TW; m++) {
        As[ty][tx] = A[row * n + m * TW + tx];
        for (int r = ty; r < TW; r += TH) {
            Bs[r][tx] = B[(m * TW + r) * n + col];
            B2[r][2 * tx] = Bs[r][tx];
            B2[r][2 * tx + 1] = -1.0f;
        }
        __syncthreads();
        int k;
        switch (spelling) {
        case 0:
            for (k = 0; k < TW; ++k)
                acc += As[ty][k] * Bs[k][tx];
            break;
        case 1:
            k = 0;
            while (k < TW) {
                acc += As[ty][k] * Bs[k][tx] + bias;
                k++;
            }
            acc -= bias * TW;
            break;
        case 2:
            k = 0;
            do {
                float p = As[ty][k] * Bs[k][tx];
                acc += p;
            } while (++k < TW);
            break;
        case 3:
            for (k = 0; k < TW;) {
                acc += As[ty][k] * Bs[k][tx];
                k += 1;
            }
            break;
        case 4: acc += dot_rc<TW>(As[ty], Bs, tx); break;
        case 5: acc += dot_rc<TW>(&As[ty][0], Bs, tx); break;
        case 6: acc += dot_even<TW>(As[ty], B2, 2 * tx); break;
        default: acc += dot_walk<TW>(&As[ty][0], &Bs[0][tx]); break;
        }
        __syncthreads();
    }
    C[row * n + col] = acc;
}

static int fails = 0;

template <int TW, int TH>
static void run(const float *A, const float *B, const float *R, float *dA, float *dB, float *dC, int n) {
    float *C = (float *)malloc(n * n * sizeof(float));
    for (int s = 0; s < 8; s++) {
        cudaMemset(dC, 0, n * n * sizeof(float));
        mm<TW, TH><<<dim3(n / TW, n / TH), dim3(TW, TH)>>>(dA, dB, dC, n, s);
        cudaMemcpy(C, dC, n * n * sizeof(float), cudaMemcpyDeviceToHost);
        for (int i = 0; i < n * n; i++)
            if (fabsf(C[i] - R[i]) > 1e-3f * (1.0f + fabsf(R[i]))) {
                printf("FAIL tile %dx%d spelling %d: C[%d][%d] = %g, expected %g\n", TW, TH, s, i / n, i % n, C[i], R[i]);
                fails++;
                break;
            }
    }
    free(C);
}

int main() {
    const int n = 96;   // a multiple of 32 and of 6
    size_t sz = n * n * sizeof(float);
    float *A = (float *)malloc(sz), *B = (float *)malloc(sz), *R = (float *)malloc(sz);
    for (int i = 0; i < n * n; i++) {
        A[i] = (float)((i * 37) % 17) / 8.0f - 1.0f;
        B[i] = (float)((i * 53) % 13) / 6.0f - 1.0f;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0;
            for (int k = 0; k < n; k++) s += A[i * n + k] * B[k * n + j];
            R[i * n + j] = s;
        }
    float *dA, *dB, *dC;
    cudaMalloc(&dA, sz);
    cudaMalloc(&dB, sz);
    cudaMalloc(&dC, sz);
    cudaMemcpy(dA, A, sz, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, sz, cudaMemcpyHostToDevice);
    run<16, 16>(A, B, R, dA, dB, dC, n);
    run<16, 6>(A, B, R, dA, dB, dC, n);
    run<32, 8>(A, B, R, dA, dB, dC, n);
    if (cudaGetLastError() != cudaSuccess) {
        printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
        fails++;
    }
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    free(A), free(B), free(R);
    if (fails) return 1;
    printf("PASS\n");
    return 0;
}
