// spmv_csr_vector.cu: sparse matrix-vector product y = A x with A in CSR, one
// warp per row (Bell & Garland's "CSR vector" kernel, its warp sum written
// with __shfl_down_sync as today's code does): warp and lane from the global
// thread index, lanes striding through the row's nonzeros, lane 0 writes.
// 256 threads per block (8 rows). A has n rows of 8..39 nonzeros within 4096 columns
// of the diagonal (wrapping around).
// Usage: spmv_csr_vector [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <cuda_runtime.h>

__global__ void spmv_csr_vector_kernel(const int num_rows, const int *ptr, const int *indices,
                                       const float *data, const float *x, float *y) {
    int thread_id = blockDim.x * blockIdx.x + threadIdx.x;  // global thread index
    int warp_id = thread_id / 32;                           // global warp index
    int lane = thread_id & (32 - 1);                        // thread index within the warp
    // one warp per row
    int row = warp_id;
    if (row < num_rows) {
        int row_start = ptr[row];
        int row_end = ptr[row + 1];
        // compute running sum per thread
        float sum = 0;
        for (int jj = row_start + lane; jj < row_end; jj += 32)
            sum += data[jj] * x[indices[jj]];
        // parallel reduction across the warp
        for (int offset = 16; offset > 0; offset /= 2)
            sum += __shfl_down_sync(0xffffffff, sum, offset);
        // first thread writes the result
        if (lane == 0)
            y[row] = sum;
    }
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    // the matrix (the same in every spmv program and in expert.c)
    int *ptr = (int *)malloc((n + 1) * sizeof(int));
    ptr[0] = 0;
    for (int r = 0; r < n; r++)
        ptr[r + 1] = ptr[r] + 8 + (int)(((unsigned)r * 2654435761u) >> 27);
    int nnz = ptr[n];
    int *idx = (int *)malloc(nnz * sizeof(int));
    float *val = (float *)malloc(nnz * sizeof(float)), *x = (float *)malloc(n * sizeof(float));
    float *y = (float *)malloc(n * sizeof(float));
    for (int r = 0; r < n; r++)
        for (int k = ptr[r]; k < ptr[r + 1]; k++) {
            unsigned h = (unsigned)k * 2246822519u;
            long c = ((long)r + (h >> 20) % 8192 - 4096) % n;
            idx[k] = (int)(c < 0 ? c + n : c);
            val[k] = (float)(h >> 24) / 128.0f - 1.0f;
        }
    for (int i = 0; i < n; i++)
        x[i] = (float)(((unsigned)i * 2654435761u) >> 24) / 128.0f - 1.0f;
    int *d_ptr, *d_idx;
    float *d_val, *d_x, *d_y;
    cudaMalloc(&d_ptr, (n + 1) * sizeof(int));
    cudaMalloc(&d_idx, nnz * sizeof(int));
    cudaMalloc(&d_val, nnz * sizeof(float));
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    cudaMemcpy(d_ptr, ptr, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_idx, idx, nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, val, nnz * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice);
    int threads = 256;
    int blocks = (int)(((long)n * 32 + threads - 1) / threads);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        spmv_csr_vector_kernel<<<blocks, threads>>>(n, d_ptr, d_idx, d_val, d_x, d_y);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int r = 0; r < n; r++) {
        double s = 0, mag = 0;
        for (int k = ptr[r]; k < ptr[r + 1]; k++) {
            s += (double)val[k] * x[idx[k]];
            mag += fabs((double)val[k] * x[idx[k]]);
        }
        if (fabs(y[r] - s) > 1e-5 * mag + 1e-6) {
            if (!bad) printf("FAIL: y[%d] = %g, expected %g\n", r, y[r], s);
            bad++;
        }
    }
    if (!bad) printf("PASS\n");
    cudaFree(d_ptr); cudaFree(d_idx); cudaFree(d_val); cudaFree(d_x); cudaFree(d_y);
    free(ptr); free(idx); free(val); free(x); free(y);
    return bad ? 1 : 0;
}
