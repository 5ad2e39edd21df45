// mm_samples.cu: the matrix multiply of NVIDIA's CUDA samples (matrixMul):
// a BLOCK_SIZE template, indices of the first and last sub-matrix of A and
// steps through A and B walked as integers (a <= aEnd; a += aStep, b += bStep),
// the tiles declared inside the loop, #pragma unroll on the k loop, block size
// 32, timed with CUDA events.
// Usage: mm_samples [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

template <int BLOCK_SIZE> __global__ void MatrixMulCUDA(float *C, float *A, float *B, int wA, int wB) {
    int bx = blockIdx.x;
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    // first, last and step of the sub-matrices of A this block reads
    int aBegin = wA * BLOCK_SIZE * by;
    int aEnd = aBegin + wA - 1;
    int aStep = BLOCK_SIZE;
    // first and step of the sub-matrices of B
    int bBegin = BLOCK_SIZE * bx;
    int bStep = BLOCK_SIZE * wB;

    float Csub = 0;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];

        // each thread loads one element of each sub-matrix
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();

#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k) {
            Csub += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }

    int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = Csub;
}

// C = A * B checked at up to 256 places (every place when n <= 64)
static bool check(const float *A, const float *B, const float *C, int w) {
    int m = w <= 64 ? w * w : 256;
    for (int s = 0; s < m; s++) {
        int r = w <= 64 ? s / w : (int)((s * 7919u) % w), c = w <= 64 ? s % w : (int)((s * 104729u + 13) % w);
        double ref = 0, mag = 0;
        for (int k = 0; k < w; k++) {
            ref += (double)A[(size_t)r * w + k] * B[(size_t)k * w + c];
            mag += fabs((double)A[(size_t)r * w + k] * B[(size_t)k * w + c]);
        }
        if (fabs(C[(size_t)r * w + c] - ref) > 1e-5 * mag + 1e-6) {
            printf("FAIL: C[%d][%d] = %g, expected %g\n", r, c, C[(size_t)r * w + c], ref);
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 128;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    const int block_size = 32;
    if (n % block_size) {
        fprintf(stderr, "%s: n must be a multiple of %d\n", argv[0], block_size);
        return 2;
    }
    dim3 dimsA(n, n, 1), dimsB(n, n, 1);
    unsigned int size_A = dimsA.x * dimsA.y, size_B = dimsB.x * dimsB.y;
    unsigned int mem_size_A = sizeof(float) * size_A, mem_size_B = sizeof(float) * size_B;
    float *h_A, *h_B, *h_C;
    cudaMallocHost(&h_A, mem_size_A);
    cudaMallocHost(&h_B, mem_size_B);
    for (unsigned int i = 0; i < size_A; i++) {
        h_A[i] = (float)((i * 2654435761u) >> 24) / 128.0f - 1.0f;
        h_B[i] = (float)((i * 2246822519u) >> 24) / 128.0f - 1.0f;
    }
    dim3 dimsC(dimsB.x, dimsA.y, 1);
    unsigned int mem_size_C = dimsC.x * dimsC.y * sizeof(float);
    cudaMallocHost(&h_C, mem_size_C);
    float *d_A, *d_B, *d_C;
    cudaMalloc(reinterpret_cast<void **>(&d_A), mem_size_A);
    cudaMalloc(reinterpret_cast<void **>(&d_B), mem_size_B);
    cudaMalloc(reinterpret_cast<void **>(&d_C), mem_size_C);
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cudaMemcpyAsync(d_A, h_A, mem_size_A, cudaMemcpyHostToDevice, stream);
    cudaMemcpyAsync(d_B, h_B, mem_size_B, cudaMemcpyHostToDevice, stream);

    dim3 threads(block_size, block_size);
    dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (int r = 0; r < reps; r++) {
        cudaEventRecord(start, stream);
        MatrixMulCUDA<block_size><<<grid, threads, 0, stream>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);
        cudaEventRecord(stop, stream);
        cudaEventSynchronize(stop);
        float msecTotal = 0.0f;
        cudaEventElapsedTime(&msecTotal, start, stop);
        printf("TIME %.4f\n", msecTotal);
    }
    cudaMemcpyAsync(h_C, d_C, mem_size_C, cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    bool ok = check(h_A, h_B, h_C, n);
    if (ok) printf("PASS\n");
    cudaFreeHost(h_A); cudaFreeHost(h_B); cudaFreeHost(h_C);
    cudaFree(d_A); cudaFree(d_B); cudaFree(d_C);
    cudaStreamDestroy(stream);
    return ok ? 0 : 1;
}
