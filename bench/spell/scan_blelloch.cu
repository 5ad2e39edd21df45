// scan_blelloch.cu: the work-efficient exclusive scan of "Parallel Prefix Sum
// (Scan) with CUDA" (GPU Gems 3, ch. 39): prescan with an up-sweep and a
// down-sweep over temp[] (extern __shared__, offset doubling, ai/bi indices,
// temp[n - 1] = 0), 512 threads per 1024-element block; block sums kept
// before the clear, scanned the same way, added back by a uniform-add kernel.
// Usage: scan_blelloch [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cuda_runtime.h>

#define THREADS 512
#define ELEMS (2 * THREADS)

__global__ void prescan(float *g_odata, const float *g_idata, float *g_sums, int n) {
    extern __shared__ float temp[];  // allocated on invocation
    int thid = threadIdx.x;
    int base = blockIdx.x * ELEMS;
    int offset = 1;
    temp[2 * thid] = base + 2 * thid < n ? g_idata[base + 2 * thid] : 0.0f;  // load input into shared memory
    temp[2 * thid + 1] = base + 2 * thid + 1 < n ? g_idata[base + 2 * thid + 1] : 0.0f;
    for (int d = ELEMS >> 1; d > 0; d >>= 1) {  // build sum in place up the tree
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0) {
        if (g_sums) g_sums[blockIdx.x] = temp[ELEMS - 1];
        temp[ELEMS - 1] = 0;  // clear the last element
    }
    for (int d = 1; d < ELEMS; d *= 2) {  // traverse down tree & build scan
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            float t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    if (base + 2 * thid < n) g_odata[base + 2 * thid] = temp[2 * thid];  // write results to device memory
    if (base + 2 * thid + 1 < n) g_odata[base + 2 * thid + 1] = temp[2 * thid + 1];
}

__global__ void uniformAdd(float *g_data, const float *uniforms, int n) {
    __shared__ float uni;
    if (threadIdx.x == 0) uni = uniforms[blockIdx.x];
    __syncthreads();
    int address = blockIdx.x * ELEMS + threadIdx.x;
    if (address < n) g_data[address] += uni;
    if (address + THREADS < n) g_data[address + THREADS] += uni;
}

// out = exclusive scan of in (n elements); sums[l] scratch for level l
static void prescanArray(float *out, const float *in, int n, float **sums) {
    int blocks = (n + ELEMS - 1) / ELEMS;
    size_t smem = ELEMS * sizeof(float);
    if (blocks == 1) {
        prescan<<<1, THREADS, smem>>>(out, in, NULL, n);
        return;
    }
    prescan<<<blocks, THREADS, smem>>>(out, in, sums[0], n);
    prescanArray(sums[0], sums[0], blocks, sums + 1);
    uniformAdd<<<blocks, THREADS>>>(out, sums[0], n);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    float *h_in = new float[n], *h_out = new float[n];
    // 0..3: every prefix is an integer below 2^24 (n < 2^23), exact in any order
    for (int i = 0; i < n; i++)
        h_in[i] = (float)(((unsigned)i * 2654435761u) >> 30);
    float *d_in, *d_out, *sums[8];
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    int m = n;
    for (int l = 0; l < 8; l++) {
        m = (m + ELEMS - 1) / ELEMS;
        cudaMalloc(&sums[l], m * sizeof(float));
    }
    cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
    for (int r = 0; r < reps; r++) {
        auto t0 = std::chrono::steady_clock::now();
        prescanArray(d_out, d_in, n, sums);
        cudaDeviceSynchronize();
        auto t1 = std::chrono::steady_clock::now();
        printf("TIME %.4f\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    float acc = 0;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (h_out[i] != acc) {
            if (!bad) printf("FAIL: out[%d] = %g, expected %g\n", i, h_out[i], acc);
            bad++;
        }
        acc += h_in[i];
    }
    if (!bad) printf("PASS\n");
    for (int l = 0; l < 8; l++) cudaFree(sums[l]);
    cudaFree(d_in); cudaFree(d_out);
    delete[] h_in; delete[] h_out;
    return bad ? 1 : 0;
}
