// loop_decl_forms.cu: a grid-stride loop whose variable is declared before
// it (`int i = gid; for (; ...)`, CUDA by Example's `while (tid < N) { ...;
// tid += stride; }`, C89's `int i; for (i = gid; ...)`, `i = i + stride`,
// a for loop with no increment) and an index
// declared first and assigned after (`unsigned i; i = ...;`), each as fast
// as the for-init loop (lowering/canon.c, shape.c); and the forms that must
// keep their meaning: the variable read after the loop, a continue that
// skips the while loop's last store, an increment of a body's own
// variable, a declaration whose value a statement before the loop changes,
// an address taken. Each checked against the CPU.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define GS (blockIdx.x * blockDim.x + threadIdx.x)
#define STRIDE (blockDim.x * gridDim.x)

__global__ void for_noinit(const int *a, long long *out, int n) {
    long long t = 0;
    int i = GS;
    for (; i < n; i += STRIDE) t += a[i];
    atomicAdd((unsigned long long *)out, (unsigned long long)t);
}

__global__ void while_cbe(const int *a, const int *b, long long *out, int n) {   // CUDA by Example's dot
    __shared__ long long cache[256];
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int cacheIndex = threadIdx.x;
    long long temp = 0;
    while (tid < n) {
        temp += (long long)a[tid] * b[tid];
        tid += blockDim.x * gridDim.x;
    }
    cache[cacheIndex] = temp;
    __syncthreads();
    int i = blockDim.x / 2;
    while (i != 0) {
        if (cacheIndex < i) cache[cacheIndex] += cache[cacheIndex + i];
        __syncthreads();
        i /= 2;
    }
    if (cacheIndex == 0) atomicAdd((unsigned long long *)out, (unsigned long long)cache[0]);
}

__global__ void c89(const int *a, long long *out, int n) {
    int i;
    long long t = 0;
    for (i = GS; i < n; i += STRIDE) t += a[i];
    atomicAdd((unsigned long long *)out, (unsigned long long)t);
}

// the step spelled `i = i + stride`, and a for loop with no increment
__global__ void while_plus(const int *a, long long *out, int n) {
    long long t = 0;
    int i = GS;
    while (i < n) { t += a[i]; i = i + (int)STRIDE; }
    atomicAdd((unsigned long long *)out, (unsigned long long)t);
}

__global__ void for_noinc(const int *a, long long *out, int n) {
    long long t = 0;
    int i = GS;
    for (; i < n;) { t += a[i]; i += STRIDE; }
    atomicAdd((unsigned long long *)out, (unsigned long long)t);
}

// an element's address in the body (`&h[...]`) is not the variable's
__global__ void hist_while(const int *a, int *h, int n) {
    int i = GS;
    while (i < n) { atomicAdd(&h[a[i] & 15], 1); i += STRIDE; }
}

__global__ void assigned(const int *a, int *c, int n) {
    unsigned int i, j;
    i = threadIdx.x + blockDim.x * blockIdx.x;
    j = i ^ 1u;
    if (i < (unsigned)n) c[i] = a[i] + (int)(j & 1u);
}

// declared, then assigned after a barrier, kept across another; in 16 x 16
// blocks (half rows)
__global__ void assigned_cross(const int *a, int *o, int n) {
    __shared__ int s[256];
    int i;
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    i = blockIdx.x * blockDim.x + threadIdx.x;
    __syncthreads();
    if (i < n) o[i] = a[i] + s[255 - threadIdx.x];
    __syncthreads();
    i += 1;
    if (i < n) o[i - 1] += 1000;
}

__global__ void assigned_2d(int *o, int w) {
    int x, y;
    x = blockIdx.x * 16 + threadIdx.x;
    y = blockIdx.y * 16 + threadIdx.y;
    o[y * w + x] = x * 100 + y;
}

// kept as they are: each lane's own exit value read after the loop
__global__ void used_after(const int *a, int *last, int n) {
    int i = GS;
    int s = 0;
    while (i < n) { s += a[i]; i += STRIDE; }
    last[GS] = i * 1000 + (s & 7);
}

// a continue skips the last store: the lane's i stays, its loop ends by break
__global__ void with_continue(const int *a, int *o, int n) {
    int i = GS;
    int s = 0, k = 0;
    while (i < n) {
        k++;
        if (k == 2 && (threadIdx.x & 1)) { s += 100; continue; }
        if (k > 6) break;
        s += a[i];
        i += STRIDE;
    }
    o[GS] = s;
}

// the increment steps by the body's own variable
__global__ void body_step(const int *a, int *o, int n) {
    int i = GS;
    int s = 0;
    while (i < n) {
        int step = STRIDE + (int)(threadIdx.x & 1) * STRIDE;
        s += a[i];
        i += step;
    }
    o[GS] = s;
}

// a statement between the declaration and the loop changes what it read
__global__ void changed_before(const int *a, int *o, int n, int base) {
    int i = base + (int)GS;
    base = 0;
    int s = 0;
    for (; i < n; i += STRIDE) s += a[i];
    o[GS] = s + base;
}

__device__ void bump(int *p, int by) { *p += by; }
__global__ void addr_taken(const int *a, int *o, int n) {
    int i = GS;
    int s = 0;
    while (i < n) { s += a[i]; bump(&i, STRIDE); }
    o[GS] = s;
}

int main() {
    const int n = 100003, blocks = 13, threads = 256, T = blocks * threads;
    int *ha = (int *)malloc(n * sizeof(int)), *hb = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) { ha[i] = (int)((i * 2654435761u) >> 20) - 2048; hb[i] = i % 7 - 3; }
    int *a, *b, *c, *o;
    long long *out;
    cudaMalloc(&a, n * sizeof(int)); cudaMalloc(&b, n * sizeof(int)); cudaMalloc(&c, n * sizeof(int));
    cudaMalloc(&o, T * sizeof(int)); cudaMalloc(&out, 5 * sizeof(long long));
    cudaMemcpy(a, ha, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(out, 0, 5 * sizeof(long long));
    int bad = 0;
    long long sum = 0, dot = 0;
    for (int i = 0; i < n; i++) sum += ha[i], dot += (long long)ha[i] * hb[i];
    for_noinit<<<blocks, threads>>>(a, out, n);
    while_cbe<<<blocks, threads>>>(a, b, out + 1, n);
    c89<<<blocks, threads>>>(a, out + 2, n);
    while_plus<<<blocks, threads>>>(a, out + 3, n);
    for_noinc<<<blocks, threads>>>(a, out + 4, n);
    long long r[5];
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    if (r[0] != sum) { printf("for_noinit: %lld, want %lld\n", r[0], sum); bad++; }
    if (r[1] != dot) { printf("while_cbe: %lld, want %lld\n", r[1], dot); bad++; }
    if (r[2] != sum) { printf("c89: %lld, want %lld\n", r[2], sum); bad++; }
    if (r[3] != sum) { printf("while_plus: %lld, want %lld\n", r[3], sum); bad++; }
    if (r[4] != sum) { printf("for_noinc: %lld, want %lld\n", r[4], sum); bad++; }
    int *h = (int *)malloc(n * sizeof(int));
    cudaMemset(c, 0, 16 * sizeof(int));
    hist_while<<<blocks, threads>>>(a, c, n);
    cudaMemcpy(h, c, 16 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int b = 0; b < 16; b++) {
        int want = 0;
        for (int i = 0; i < n; i++) want += (ha[i] & 15) == b;
        if (h[b] != want) { printf("hist_while[%d]: %d, want %d\n", b, h[b], want); bad++; break; }
    }
    assigned<<<(n + 255) / 256, 256>>>(a, c, n);
    cudaMemcpy(h, c, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (h[i] != ha[i] + ((i ^ 1) & 1)) { printf("assigned[%d]: %d, want %d\n", i, h[i], ha[i] + ((i ^ 1) & 1)); bad++; break; }
    assigned_cross<<<(n + 255) / 256, 256>>>(a, c, n);
    cudaMemcpy(h, c, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (h[i] != ha[i] + 255 - i % 256 + (i < n - 1 ? 1000 : 0)) { printf("assigned_cross[%d]: %d\n", i, h[i]); bad++; break; }
    assigned_2d<<<dim3(8, 4), dim3(16, 16)>>>(c, 128);
    cudaMemcpy(h, c, 128 * 64 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 128 * 64; i++)
        if (h[i] != (i % 128) * 100 + i / 128) { printf("assigned_2d[%d]: %d\n", i, h[i]); bad++; break; }
    int *ho = (int *)malloc(T * sizeof(int));
    for (int kind = 0; kind < 5; kind++) {
        if (kind == 0) used_after<<<blocks, threads>>>(a, o, n);
        if (kind == 1) with_continue<<<blocks, threads>>>(a, o, n);
        if (kind == 2) body_step<<<blocks, threads>>>(a, o, n);
        if (kind == 3) changed_before<<<blocks, threads>>>(a, o, n, 5);
        if (kind == 4) addr_taken<<<blocks, threads>>>(a, o, n);
        cudaMemcpy(ho, o, T * sizeof(int), cudaMemcpyDeviceToHost);
        for (int g = 0; g < T; g++) {
            int t = g % threads, want = 0;
            if (kind == 0) {
                int i = g, s = 0;
                while (i < n) { s += ha[i]; i += T; }
                want = i * 1000 + (s & 7);
            } else if (kind == 1) {
                int i = g, s = 0, k = 0;
                while (i < n) {
                    k++;
                    if (k == 2 && (t & 1)) { s += 100; continue; }
                    if (k > 6) break;
                    s += ha[i];
                    i += T;
                }
                want = s;
            } else if (kind == 2) {
                for (int i = g; i < n; i += T + (t & 1) * T) want += ha[i];
            } else if (kind == 3) {
                for (int i = 5 + g; i < n; i += T) want += ha[i];
            } else {
                for (int i = g; i < n; i += T) want += ha[i];
            }
            if (ho[g] != want) { printf("kind %d thread %d: %d, want %d\n", kind, g, ho[g], want); bad++; break; }
        }
    }
    if (bad) return 1;
    printf("PASS\n");
    return 0;
}
