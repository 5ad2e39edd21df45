// gemv_warp.cu: y = A x, row-major A of rows x 2048 floats, one warp per row
// as hand-written SGEMV kernels (and LLM decoding code) write it: the warp's
// row and lane from the thread index, lanes striding through the row with
// const float *__restrict__ loads and __ldg for the shared vector x, a
// __shfl_down_sync tree, lane 0 writes y[row]. 256 threads (8 rows) a block.
// Usage: gemv_warp [rows] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <cuda_runtime.h>

#define COLS 2048
#define WARP_SIZE 32

__global__ void gemv_warp_per_row(const float *__restrict__ A, const float *__restrict__ x,
                                  float *__restrict__ y, int rows, int cols) {
    int warp_id = (blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE;
    int lane = threadIdx.x % WARP_SIZE;
    if (warp_id >= rows) return;

    const float *row = A + (size_t)warp_id * cols;
    float sum = 0.0f;
    for (int col = lane; col < cols; col += WARP_SIZE)
        sum += row[col] * __ldg(&x[col]);

    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xffffffff, sum, offset);

    if (lane == 0)
        y[warp_id] = sum;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static float hash8(unsigned i, unsigned k) { return (float)((i * k) >> 24) / 128.0f - 1.0f; }

int main(int argc, char **argv) {
    int rows = argc > 1 ? atoi(argv[1]) : 1024;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    size_t n = (size_t)rows * COLS;
    float *h_A = (float *)malloc(n * sizeof(float)), *h_x = (float *)malloc(COLS * sizeof(float));
    float *h_y = (float *)malloc(rows * sizeof(float));
    for (size_t i = 0; i < n; i++) h_A[i] = hash8((unsigned)i, 2654435761u);
    for (int i = 0; i < COLS; i++) h_x[i] = hash8((unsigned)i, 2246822519u);
    float *d_A, *d_x, *d_y;
    cudaMalloc(&d_A, n * sizeof(float));
    cudaMalloc(&d_x, COLS * sizeof(float));
    cudaMalloc(&d_y, rows * sizeof(float));
    cudaMemcpy(d_A, h_A, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_x, h_x, COLS * sizeof(float), cudaMemcpyHostToDevice);
    const int threads = 256;
    const int blocks = (rows * WARP_SIZE + threads - 1) / threads;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        gemv_warp_per_row<<<blocks, threads>>>(d_A, d_x, d_y, rows, COLS);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(h_y, d_y, rows * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int r = 0; r < rows; r++) {
        double s = 0, mag = 0;
        for (int c = 0; c < COLS; c++) {
            s += (double)h_A[(size_t)r * COLS + c] * h_x[c];
            mag += fabs((double)h_A[(size_t)r * COLS + c] * h_x[c]);
        }
        if (fabs(h_y[r] - s) > 1e-5 * mag + 1e-6) {
            if (!bad) printf("FAIL: y[%d] = %.9g, expected %.9g\n", r, h_y[r], s);
            bad++;
        }
    }
    if (!bad) printf("PASS\n");
    cudaFree(d_A); cudaFree(d_x); cudaFree(d_y);
    free(h_A); free(h_x); free(h_y);
    return bad ? 1 : 0;
}
