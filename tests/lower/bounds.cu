// Block-level bounds tests (lowering/bound.c): which conditions get one.
#define T 16

// tile loads guarded as the textbook writes them: a test per condition,
// at the region's top; the counts and the ?: use it
__global__ void tiles(const float *M, float *P, int w) {
    __shared__ float Ms[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float v = 0;
    for (int ph = 0; ph < (w + T - 1) / T; ++ph) {
        if (row < w && ph * T + tx < w) Ms[ty][tx] = M[row * w + ph * T + tx];
        else Ms[ty][tx] = 0;
        __syncthreads();
        for (int k = 0; k < T; ++k) v += Ms[ty][k];
        __syncthreads();
        Ms[ty][tx] = col < w ? M[col] : 0.0f;
        __syncthreads();
        v += Ms[tx][ty];
        __syncthreads();
    }
    if (row < w && col < w) P[row * w + col] = v;
}

// the whole body under the bounds test, barriers inside
__global__ void guarded(const float *A, float *C, int n) {
    __shared__ float s[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    if (row < n && col < n) {
        s[threadIdx.y][threadIdx.x] = A[row * n + col];
        __syncthreads();
        C[row * n + col] = s[threadIdx.x][threadIdx.y];
    }
}

// none: roles of a block's threads (no size compared), a condition that
// reads memory, one of a variable the loop's body changes
__global__ void none(const int *a, int *out, int n) {
    __shared__ int s[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    s[threadIdx.y][threadIdx.x] = 0;
    __syncthreads();
    if (threadIdx.y < 4) out[row * 64 + col] = 1;
    if (a[row] < n) out[row * 64 + col] += 2;
    for (int j = 0; j < 3; j++) {
        if (j + col < n) out[row * 64 + col] += j;
        j += a[j] & 1;
    }
    __syncthreads();
    out[row] = s[0][0];
}

// ranged: a loop's variable between the loop's bounds, every iteration
__global__ void ranged(const int *a, int *out, int n) {
    __shared__ int s[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    s[threadIdx.y][threadIdx.x] = 0;
    __syncthreads();
    for (int j = 0; j < 3; j++)
        if (j + col < n) out[row * 64 + col] += j + a[row];
    __syncthreads();
    out[row] = s[0][0];
}
int main() { return 0; }
