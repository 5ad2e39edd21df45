// jacobi.cu: a 2-D Jacobi solver for Laplace's equation on an nx x ny grid
// (the top row held at 1, the other edges at 0), its interior rows split
// into P parts, each part's rows on one device between two halo rows.
//  - built with -DUSE_MPI (cucc -ccbin mpicxx): one MPI rank per part, on
//    the device its node-local rank picks (OMPI_COMM_WORLD_LOCAL_RANK
//    modulo the devices, as multi-GPU MPI codes do); halos go through
//    MPI_Sendrecv on device pointers, the residual and checksum through
//    MPI_Allreduce on device buffers, and rank 0 gathers the grid from
//    device memory with MPI_Gatherv;
//  - without: one process, one part per device (CUCC_DEVICES), all from one
//    host thread: halos go by cudaMemcpyPeerAsync in each device's stream,
//    which waits for its neighbours' events before it reads their rows.
// The residual (the largest change of the last sweep) and the checksum (an
// integer sum of the grid in fixed point) are exact whatever P is, and
// unless told not to, the whole grid is checked bit for bit against a
// Jacobi solver on the CPU.
// usage: jacobi [nx ny iters [cpu_check (1)]]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <vector>
#include <cuda_runtime.h>
#ifdef USE_MPI
#include <mpi.h>
#endif

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); exit(1); } } while (0)

// One sweep over local rows 1..m: v from u; the largest change of the block
// goes to *res by its bits (non-negative floats order as their bits do).
__global__ void sweep(const float *u, float *v, int nx, int m, unsigned *res) {
  __shared__ float big[256];
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y + 1;
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  float d = 0.0f;
  if (i <= m && j >= 1 && j < nx - 1) {
    size_t at = (size_t)i * nx + j;
    float w = 0.25f * (u[at - nx] + u[at + nx] + u[at - 1] + u[at + 1]);
    v[at] = w;
    d = fabsf(w - u[at]);
  }
  big[t] = d;
  __syncthreads();
  for (int s = blockDim.x * blockDim.y / 2; s > 0; s >>= 1) {
    if (t < s) big[t] = fmaxf(big[t], big[t + s]);
    __syncthreads();
  }
  if (t == 0) atomicMax(res, __float_as_uint(big[0]));
}

// The fixed-point sum of rows 1..m: integers add exactly in any order.
__global__ void checksum(const float *v, int nx, int m, unsigned long long *sum) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (i <= m && j < nx) atomicAdd(sum, (unsigned long long)llrintf(v[(size_t)i * nx + j] * 16777216.0f));
}

// Interior rows [1, ny-1) split into P parts: part p's first row and count.
static void split(int ny, int P, int p, int *r0, int *m) {
  int rows = ny - 2, q = rows / P, r = rows % P;
  *r0 = 1 + p * q + (p < r ? p : r);
  *m = q + (p < r);
}

// A part's rows, halos included, as the start of the solve has them.
static void init_rows(float *h, int nx, int r0, int m) {
  for (int i = 0; i < m + 2; i++)
    for (int j = 0; j < nx; j++) h[(size_t)i * nx + j] = r0 - 1 + i == 0 ? 1.0f : 0.0f;
}

// The CPU's Jacobi, sweep for sweep the same arithmetic.
static void cpu_jacobi(std::vector<float> &g, int nx, int ny, int iters, float *res) {
  std::vector<float> n = g;
  for (int k = 0; k < iters; k++) {
    float big = 0.0f;
    for (int i = 1; i < ny - 1; i++)
      for (int j = 1; j < nx - 1; j++) {
        size_t at = (size_t)i * nx + j;
        float w = 0.25f * (g[at - nx] + g[at + nx] + g[at - 1] + g[at + 1]);
        n[at] = w;
        big = fmaxf(big, fabsf(w - g[at]));
      }
    g.swap(n);
    *res = big;
  }
}

struct Part {
  int dev, r0, m;
  float *buf[2];
  unsigned *res;
  unsigned long long *sum;
  cudaStream_t s;
  cudaEvent_t halo;
};

static void make(Part &p, int nx) {
  CHECK(cudaSetDevice(p.dev));
  size_t bytes = (size_t)(p.m + 2) * nx * sizeof(float);
  std::vector<float> h((size_t)(p.m + 2) * nx);
  init_rows(h.data(), nx, p.r0, p.m);
  for (int b = 0; b < 2; b++) {
    CHECK(cudaMalloc(&p.buf[b], bytes));
    CHECK(cudaMemcpy(p.buf[b], h.data(), bytes, cudaMemcpyHostToDevice));
  }
  CHECK(cudaMalloc(&p.res, sizeof *p.res));
  CHECK(cudaMalloc(&p.sum, sizeof *p.sum));
  CHECK(cudaStreamCreate(&p.s));
  CHECK(cudaEventCreateWithFlags(&p.halo, cudaEventDisableTiming));
}

static void launch(Part &p, int nx, int k) {
  dim3 blk(32, 8), grd((nx + 31) / 32, (p.m + 7) / 8);
  CHECK(cudaMemsetAsync(p.res, 0, sizeof *p.res, p.s));
  sweep<<<grd, blk, 0, p.s>>>(p.buf[k & 1], p.buf[(k + 1) & 1], nx, p.m, p.res);
  CHECK(cudaGetLastError());
}

static void sums(Part &p, int nx, int iters) {
  dim3 blk(32, 8), grd((nx + 31) / 32, (p.m + 7) / 8);
  CHECK(cudaMemsetAsync(p.sum, 0, sizeof *p.sum, p.s));
  checksum<<<grd, blk, 0, p.s>>>(p.buf[iters & 1], nx, p.m, p.sum);
  CHECK(cudaStreamSynchronize(p.s));
}

static int report(const std::vector<float> *grid, int nx, int ny, int iters, int P, float res,
                  unsigned long long sum, double ms) {
  printf("jacobi %dx%d, %d sweeps, %d parts: residual %.9e checksum %llu\n", nx, ny, iters, P, res, sum);
  printf("time %.3f ms (%.3f ms per sweep)\n", ms, ms / iters);
  if (!grid) return 0;
  std::vector<float> g((size_t)nx * ny);
  init_rows(g.data(), nx, 1, ny - 2);
  float cres = 0.0f;
  cpu_jacobi(g, nx, ny, iters, &cres);
  size_t wrong = 0;
  for (size_t i = 0; i < g.size(); i++) wrong += memcmp(&g[i], &(*grid)[i], sizeof(float)) != 0;
  if (wrong || cres != res) {
    printf("%zu of %zu points differ from the CPU's; CPU residual %.9e\nFAIL\n", wrong, g.size(), cres);
    return 1;
  }
  printf("PASS\n");
  return 0;
}

int main(int argc, char **argv) {
  int nx = argc > 3 ? atoi(argv[1]) : 130, ny = argc > 3 ? atoi(argv[2]) : 130;
  int iters = argc > 3 ? atoi(argv[3]) : 100, cpu = argc > 4 ? atoi(argv[4]) : 1;
  if (nx < 3 || ny < 3 || iters < 1) {
    fprintf(stderr, "usage: %s [nx ny iters [cpu_check]] (nx, ny >= 3)\n", argv[0]);
    return 2;
  }
  int ndev = 0;
  CHECK(cudaGetDeviceCount(&ndev));
#ifdef USE_MPI
  // the device first, from the launcher's node-local rank, as real codes do
  const char *lr = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  Part p;
  p.dev = (lr ? atoi(lr) : 0) % ndev;
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  if (P > ny - 2) {
    if (!rank) fprintf(stderr, "more ranks (%d) than interior rows (%d)\n", P, ny - 2);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  split(ny, P, rank, &p.r0, &p.m);
  make(p, nx);
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < P - 1 ? rank + 1 : MPI_PROC_NULL;
  unsigned *gres;
  unsigned long long *gsum;
  CHECK(cudaMalloc(&gres, sizeof *gres));
  CHECK(cudaMalloc(&gsum, sizeof *gsum));
  MPI_Barrier(MPI_COMM_WORLD);
  auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < iters; k++) {
    launch(p, nx, k);
    CHECK(cudaStreamSynchronize(p.s));
    float *v = p.buf[(k + 1) & 1];
    // my first row to the part above, its last to my top halo; and down
    MPI_Sendrecv(v + nx, nx, MPI_FLOAT, up, 0, v + (size_t)(p.m + 1) * nx, nx, MPI_FLOAT, down, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(v + (size_t)p.m * nx, nx, MPI_FLOAT, down, 1, v, nx, MPI_FLOAT, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  }
  // the largest change of the last sweep, over every rank, device to device
  MPI_Allreduce(p.res, gres, 1, MPI_UNSIGNED, MPI_MAX, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  sums(p, nx, iters);
  MPI_Allreduce(p.sum, gsum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  unsigned rbits;
  unsigned long long sum;
  CHECK(cudaMemcpy(&rbits, gres, sizeof rbits, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&sum, gsum, sizeof sum, cudaMemcpyDeviceToHost));
  float res;
  memcpy(&res, &rbits, sizeof res);
  // the grid to rank 0, straight from device memory
  std::vector<int> counts(P), offs(P);
  for (int q = 0; q < P; q++) {
    int r0, m;
    split(ny, P, q, &r0, &m);
    counts[q] = m * nx;
    offs[q] = r0 * nx;
  }
  std::vector<float> grid;
  float *all = nullptr;
  if (!rank && cpu) {
    CHECK(cudaMallocHost(&all, (size_t)nx * ny * sizeof(float)));
    init_rows(all, nx, 1, ny - 2);
  }
  if (cpu)
    MPI_Gatherv(p.buf[iters & 1] + nx, p.m * nx, MPI_FLOAT, all, counts.data(), offs.data(), MPI_FLOAT, 0,
                MPI_COMM_WORLD);
  int rc = 0;
  if (!rank) {
    if (cpu) grid.assign(all, all + (size_t)nx * ny);
    rc = report(cpu ? &grid : nullptr, nx, ny, iters, P, res, sum, ms);
    printf("(%d ranks, device %d of %d on rank 0)\n", P, p.dev, ndev);
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return rc;
#else
  int P = ndev < ny - 2 ? ndev : ny - 2;
  std::vector<Part> parts(P);
  for (int q = 0; q < P; q++) {
    parts[q].dev = q;
    split(ny, P, q, &parts[q].r0, &parts[q].m);
    make(parts[q], nx);
  }
  auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < iters; k++) {
    // each device sweeps once its neighbours' rows of the last sweep are in
    for (int q = 0; q < P; q++) {
      Part &p = parts[q];
      CHECK(cudaSetDevice(p.dev));
      if (k > 0 && q > 0) CHECK(cudaStreamWaitEvent(p.s, parts[q - 1].halo, 0));
      if (k > 0 && q < P - 1) CHECK(cudaStreamWaitEvent(p.s, parts[q + 1].halo, 0));
      launch(p, nx, k);
    }
    // then sends its first and last rows to its neighbours' halos
    for (int q = 0; q < P; q++) {
      Part &p = parts[q];
      CHECK(cudaSetDevice(p.dev));
      float *v = p.buf[(k + 1) & 1];
      if (q > 0) {
        Part &a = parts[q - 1];
        CHECK(cudaMemcpyPeerAsync(a.buf[(k + 1) & 1] + (size_t)(a.m + 1) * nx, a.dev, v + nx, p.dev,
                                  nx * sizeof(float), p.s));
      }
      if (q < P - 1) {
        Part &b = parts[q + 1];
        CHECK(cudaMemcpyPeerAsync(b.buf[(k + 1) & 1], b.dev, v + (size_t)p.m * nx, p.dev, nx * sizeof(float), p.s));
      }
      CHECK(cudaEventRecord(p.halo, p.s));
    }
  }
  float res = 0.0f;
  for (int q = 0; q < P; q++) {
    unsigned rbits;
    CHECK(cudaSetDevice(parts[q].dev));
    CHECK(cudaMemcpyAsync(&rbits, parts[q].res, sizeof rbits, cudaMemcpyDeviceToHost, parts[q].s));
    CHECK(cudaStreamSynchronize(parts[q].s));
    float r;
    memcpy(&r, &rbits, sizeof r);
    res = fmaxf(res, r);
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  unsigned long long sum = 0;
  std::vector<float> grid;
  if (cpu) {
    grid.resize((size_t)nx * ny);
    init_rows(grid.data(), nx, 1, ny - 2);
  }
  for (int q = 0; q < P; q++) {
    Part &p = parts[q];
    unsigned long long s;
    CHECK(cudaSetDevice(p.dev));
    sums(p, nx, iters);
    CHECK(cudaMemcpy(&s, p.sum, sizeof s, cudaMemcpyDeviceToHost));
    sum += s;
    if (cpu)
      CHECK(cudaMemcpy(&grid[(size_t)p.r0 * nx], p.buf[iters & 1] + nx, (size_t)p.m * nx * sizeof(float),
                       cudaMemcpyDeviceToHost));
  }
  int rc = report(cpu ? &grid : nullptr, nx, ny, iters, P, res, sum, ms);
  printf("(%d devices)\n", P);
  return rc;
#endif
}
