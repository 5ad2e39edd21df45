// transpose_padded.cu: the matrix transpose of Harris's "An Efficient Matrix
// Transpose in CUDA C/C++" (transposeNoBankConflicts): 32 x 32 tiles through
// shared memory padded to tile[32][33], 32 x 8 threads each copying 4 rows,
// width taken from gridDim. n must be a multiple of 32.
// Usage: transpose_padded [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

const int TILE_DIM = 32;
const int BLOCK_ROWS = 8;

__global__ void transposeNoBankConflicts(float *odata, const float *idata) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    int width = gridDim.x * TILE_DIM;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];

    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;  // transpose block offset
    y = blockIdx.x * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n % TILE_DIM) {
        fprintf(stderr, "%s: n must be a multiple of %d\n", argv[0], TILE_DIM);
        return 2;
    }
    const int nx = n, ny = n;
    const int mem_size = nx * ny * sizeof(float);
    dim3 dimGrid(nx / TILE_DIM, ny / TILE_DIM, 1);
    dim3 dimBlock(TILE_DIM, BLOCK_ROWS, 1);

    float *h_idata = (float *)malloc(mem_size);
    float *h_tdata = (float *)malloc(mem_size);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            h_idata[j * nx + i] = j * nx + i;

    float *d_idata, *d_tdata;
    cudaMalloc(&d_idata, mem_size);
    cudaMalloc(&d_tdata, mem_size);
    cudaMemcpy(d_idata, h_idata, mem_size, cudaMemcpyHostToDevice);

    cudaEvent_t startEvent, stopEvent;
    cudaEventCreate(&startEvent);
    cudaEventCreate(&stopEvent);
    for (int r = 0; r < reps; r++) {
        cudaEventRecord(startEvent, 0);
        transposeNoBankConflicts<<<dimGrid, dimBlock>>>(d_tdata, d_idata);
        cudaEventRecord(stopEvent, 0);
        cudaEventSynchronize(stopEvent);
        float ms;
        cudaEventElapsedTime(&ms, startEvent, stopEvent);
        printf("TIME %.4f\n", ms);
    }
    cudaMemcpy(h_tdata, d_tdata, mem_size, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            if (h_tdata[j * nx + i] != h_idata[i * nx + j]) {
                if (!bad) printf("FAIL: out[%d][%d] = %g, expected %g\n", j, i, h_tdata[j * nx + i], h_idata[i * nx + j]);
                bad++;
            }
    if (!bad) printf("PASS\n");
    cudaEventDestroy(startEvent);
    cudaEventDestroy(stopEvent);
    cudaFree(d_tdata);
    cudaFree(d_idata);
    free(h_idata);
    free(h_tdata);
    return bad ? 1 : 0;
}
