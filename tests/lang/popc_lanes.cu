// popc_lanes.cu: __popc and __popcll in lane loops (where the device C
// counts bits with shifts and adds that vectorize, cucc_dev.h's
// cu_popc32/64, on x86 without a vector popcount), on uniform values, and
// a lane's rank among a mask's lanes under divergence (a masked warp
// version's initializer computed in every lane), against the CPU's count.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ unsigned rank_in(unsigned mask) {
    unsigned lt = (1u << (threadIdx.x % 32)) - 1u;
    unsigned r = __popc(mask & lt);
    return r;
}

__global__ void counts(const unsigned *a, const unsigned long long *b, int *pa, int *pb, int *pu, int *rk, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    pa[i] = __popc(a[i]);
    pb[i] = __popcll(b[i]);
    pu[i] = __popc(a[blockIdx.x]) + __popcll(b[blockIdx.x]);   // the same in every lane
    rk[i] = -1;
    if (a[i] & 4u) {
        unsigned m = __activemask();
        int r = (int)rank_in(m);
        int c = __popc(m);
        rk[i] = r * 64 + c;
    }
}

static int cpu_popc(unsigned long long x) {
    int c = 0;
    for (; x; x &= x - 1) c++;
    return c;
}

int main() {
    const int n = 4099, threads = 128;
    unsigned *a = (unsigned *)malloc(n * sizeof(unsigned));
    unsigned long long *b = (unsigned long long *)malloc(n * sizeof(unsigned long long));
    unsigned long long s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < n; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        a[i] = (unsigned)s;
        b[i] = s * 0xbf58476d1ce4e5b9ull;
    }
    unsigned edge[] = {0u, 1u, 0x80000000u, 0xffffffffu, 0x7fffffffu, 0x55555555u, 0xaaaaaaaau, 0x0f0f0f0fu};
    for (int i = 0; i < 8; i++) {
        a[i] = edge[i];
        b[i] = (unsigned long long)edge[i] << 32 | edge[7 - i];
    }
    b[8] = ~0ull;
    b[9] = 0;
    unsigned *da;
    unsigned long long *db;
    int *pa, *pb, *pu, *rk;
    cudaMalloc(&da, n * sizeof(unsigned));
    cudaMalloc(&db, n * sizeof(unsigned long long));
    cudaMalloc(&pa, n * sizeof(int));
    cudaMalloc(&pb, n * sizeof(int));
    cudaMalloc(&pu, n * sizeof(int));
    cudaMalloc(&rk, n * sizeof(int));
    cudaMemcpy(da, a, n * sizeof(unsigned), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, n * sizeof(unsigned long long), cudaMemcpyHostToDevice);
    counts<<<(n + threads - 1) / threads, threads>>>(da, db, pa, pb, pu, rk, n);
    int *ha = (int *)malloc(n * sizeof(int)), *hb = (int *)malloc(n * sizeof(int));
    int *hu = (int *)malloc(n * sizeof(int)), *hr = (int *)malloc(n * sizeof(int));
    cudaMemcpy(ha, pa, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(hb, pb, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(hu, pu, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(hr, rk, n * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n && bad < 10; i++) {
        int blk = i / threads, w0 = i / 32 * 32;
        unsigned m = 0;
        for (int l = 0; l < 32 && w0 + l < n; l++)
            if (a[w0 + l] & 4u) m |= 1u << l;
        int want_r = (a[i] & 4u) ? cpu_popc(m & ((1u << (i % 32)) - 1u)) * 64 + cpu_popc(m) : -1;
        if (ha[i] != cpu_popc(a[i]) || hb[i] != cpu_popc(b[i]) || hu[i] != cpu_popc(a[blk]) + cpu_popc(b[blk]) ||
            hr[i] != want_r) {
            printf("FAIL at %d: popc %d/%d popcll %d/%d uniform %d rank %d/%d\n", i, ha[i], cpu_popc(a[i]), hb[i],
                   cpu_popc(b[i]), hu[i], hr[i], want_r);
            bad++;
        }
    }
    if (!bad) printf("PASS\n");
    return bad ? 1 : 0;
}
