// bitonic_step.cu: bitonic sort as the well-known single-kernel example
// writes it: bitonic_sort_step(values, j, k) compares element i with
// ixj = i ^ j (when ixj > i) and swaps them ascending or descending by
// (i & k), the host's two loops "for (k = 2; k <= n; k <<= 1)
// for (j = k >> 1; j > 0; j >>= 1)" launching one step each. 512 threads per
// block, n a power of 2; the input copied in before each repetition.
// Usage: bitonic_step [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

#define THREADS 512

__global__ void bitonic_sort_step(float *dev_values, int j, int k) {
    unsigned int i, ixj; /* Sorting partners: i and ixj */
    i = threadIdx.x + blockDim.x * blockIdx.x;
    ixj = i ^ j;

    /* The threads with the lowest ids sort the array. */
    if ((ixj) > i) {
        if ((i & k) == 0) {
            /* Sort ascending */
            if (dev_values[i] > dev_values[ixj]) {
                /* exchange(i,ixj); */
                float temp = dev_values[i];
                dev_values[i] = dev_values[ixj];
                dev_values[ixj] = temp;
            }
        }
        if ((i & k) != 0) {
            /* Sort descending */
            if (dev_values[i] < dev_values[ixj]) {
                /* exchange(i,ixj); */
                float temp = dev_values[i];
                dev_values[i] = dev_values[ixj];
                dev_values[ixj] = temp;
            }
        }
    }
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int cmp(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 65536;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < THREADS || (n & (n - 1))) {
        fprintf(stderr, "%s: n must be a power of 2, at least %d\n", argv[0], THREADS);
        return 2;
    }
    size_t size = n * sizeof(float);
    float *values = (float *)malloc(size), *sorted = (float *)malloc(size);
    for (int i = 0; i < n; i++)
        values[i] = (float)(((unsigned)i * 2654435761u) >> 8) / 16777216.0f - 0.5f;
    float *dev_values;
    cudaMalloc((void **)&dev_values, size);
    dim3 blocks(n / THREADS, 1);
    dim3 threads(THREADS, 1);
    for (int r = 0; r < reps; r++) {
        cudaMemcpy(dev_values, values, size, cudaMemcpyHostToDevice);
        double t0 = now_ms();
        int j, k;
        /* Major step */
        for (k = 2; k <= n; k <<= 1) {
            /* Minor step */
            for (j = k >> 1; j > 0; j = j >> 1) {
                bitonic_sort_step<<<blocks, threads>>>(dev_values, j, k);
            }
        }
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(sorted, dev_values, size, cudaMemcpyDeviceToHost);
    qsort(values, n, sizeof(float), cmp);
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (sorted[i] != values[i]) {
            if (!bad) printf("FAIL: sorted[%d] = %.9g, expected %.9g\n", i, sorted[i], values[i]);
            bad++;
        }
    if (!bad) printf("PASS\n");
    cudaFree(dev_values);
    free(values); free(sorted);
    return bad ? 1 : 0;
}
