// mm_kirk.cu: the tiled matrix multiply of Kirk & Hwu's textbook ("Programming
// Massively Parallel Processors", the tiled kernel with boundary checks):
// ceil(Width / (float)TILE_WIDTH) phases, each tile load guarded (0 outside
// the matrix), the store guarded; TILE_WIDTH 16, a ceil-sized grid, so any
// Width works.
// Usage: mm_kirk [Width] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(float *M, float *N, float *P, int Width) {
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;

    // Identify the row and column of the P element to work on
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;

    float Pvalue = 0;
    // Loop over the M and N tiles required to compute the P element
    for (int ph = 0; ph < ceil(Width / (float)TILE_WIDTH); ++ph) {
        // Collaborative loading of M and N tiles into shared memory
        if ((Row < Width) && (ph * TILE_WIDTH + tx) < Width)
            Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if ((ph * TILE_WIDTH + ty) < Width && Col < Width)
            Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];
        else
            Nds[ty][tx] = 0;
        __syncthreads();

        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    if ((Row < Width) && (Col < Width))
        P[Row * Width + Col] = Pvalue;
}

// P = M * N checked at up to 256 places (every place when Width <= 64)
static int check(const float *A, const float *B, const float *C, int w) {
    int m = w <= 64 ? w * w : 256;
    for (int s = 0; s < m; s++) {
        int r = w <= 64 ? s / w : (int)((s * 7919u) % w), c = w <= 64 ? s % w : (int)((s * 104729u + 13) % w);
        double ref = 0, mag = 0;
        for (int k = 0; k < w; k++) {
            ref += (double)A[(size_t)r * w + k] * B[(size_t)k * w + c];
            mag += fabs((double)A[(size_t)r * w + k] * B[(size_t)k * w + c]);
        }
        if (fabs(C[(size_t)r * w + c] - ref) > 1e-5 * mag + 1e-6) {
            printf("FAIL: P[%d][%d] = %g, expected %g\n", r, c, C[(size_t)r * w + c], ref);
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv) {
    int Width = argc > 1 ? atoi(argv[1]) : 100;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    size_t size = (size_t)Width * Width * sizeof(float);
    float *M = (float *)malloc(size), *N = (float *)malloc(size), *P = (float *)malloc(size);
    for (size_t i = 0; i < (size_t)Width * Width; i++) {
        M[i] = (float)(((unsigned)i * 2654435761u) >> 24) / 128.0f - 1.0f;
        N[i] = (float)(((unsigned)i * 2246822519u) >> 24) / 128.0f - 1.0f;
    }
    float *Md, *Nd, *Pd;
    cudaMalloc((void **)&Md, size);
    cudaMemcpy(Md, M, size, cudaMemcpyHostToDevice);
    cudaMalloc((void **)&Nd, size);
    cudaMemcpy(Nd, N, size, cudaMemcpyHostToDevice);
    cudaMalloc((void **)&Pd, size);

    dim3 dimGrid(ceil(Width / (float)TILE_WIDTH), ceil(Width / (float)TILE_WIDTH), 1);
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (int r = 0; r < reps; r++) {
        cudaEventRecord(start);
        MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        printf("TIME %.4f\n", ms);
    }
    cudaMemcpy(P, Pd, size, cudaMemcpyDeviceToHost);
    int ok = check(M, N, P, Width);
    if (ok) printf("PASS\n");
    cudaFree(Md); cudaFree(Nd); cudaFree(Pd);
    free(M); free(N); free(P);
    return ok ? 0 : 1;
}
