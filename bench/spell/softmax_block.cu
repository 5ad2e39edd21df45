// softmax_block.cu: row-wise softmax with one block of 256 threads per row,
// as first CUDA softmax kernels are written: a block-stride loop for the row's
// maximum, a shared-memory tree for the block's maximum, the same for the sum
// of expf(x - max), then every element written. 1024 columns.
// Usage: softmax_block [rows] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <cuda_runtime.h>

#define COLS 1024
#define THREADS 256

__global__ void softmax_kernel(const float *input, float *output, int cols) {
    __shared__ float sdata[THREADS];
    int row = blockIdx.x;
    int tid = threadIdx.x;
    const float *x = input + (size_t)row * cols;
    float *y = output + (size_t)row * cols;

    float maxval = -INFINITY;
    for (int i = tid; i < cols; i += blockDim.x)
        maxval = fmaxf(maxval, x[i]);
    sdata[tid] = maxval;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] = fmaxf(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    maxval = sdata[0];
    __syncthreads();

    float sum = 0.0f;
    for (int i = tid; i < cols; i += blockDim.x)
        sum += expf(x[i] - maxval);
    sdata[tid] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    sum = sdata[0];

    for (int i = tid; i < cols; i += blockDim.x)
        y[i] = expf(x[i] - maxval) / sum;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int rows = argc > 1 ? atoi(argv[1]) : 64;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    size_t n = (size_t)rows * COLS;
    float *h_x = (float *)malloc(n * sizeof(float)), *h_y = (float *)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        h_x[i] = (float)(((unsigned)i * 2654435761u) >> 16) / 6553.6f - 5.0f;   // in [-5, 5)
    float *d_x, *d_y;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        softmax_kernel<<<rows, THREADS>>>(d_x, d_y, COLS);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(h_y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int r = 0; r < rows && !bad; r++) {
        const float *x = h_x + (size_t)r * COLS;
        double m = -INFINITY, s = 0;
        for (int i = 0; i < COLS; i++) m = fmax(m, x[i]);
        for (int i = 0; i < COLS; i++) s += exp(x[i] - m);
        for (int i = 0; i < COLS; i++) {
            double want = exp(x[i] - m) / s;
            if (fabs(h_y[(size_t)r * COLS + i] - want) > 1e-5 * want + 1e-12) {
                printf("FAIL: y[%d][%d] = %g, expected %g\n", r, i, h_y[(size_t)r * COLS + i], want);
                bad = 1;
                break;
            }
        }
    }
    if (!bad) printf("PASS\n");
    cudaFree(d_x); cudaFree(d_y);
    free(h_x); free(h_y);
    return bad;
}
