// allreduce.cu: device memory passed straight to MPI ("CUDA-aware MPI"):
// cucc's device memory is host memory, so any MPI reads and writes it.
// Each rank takes the device of its node-local rank (modulo the devices),
// fills device buffers with a kernel and reduces them with MPI_Allreduce
// device to device (integers summed, doubles maxed in place), broadcasts
// and gathers into device memory, and reduces managed and page-locked
// buffers; a kernel then uses what MPI wrote. Checked on every rank
// against the sums the ranks' values must give.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <mpi.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void fill(int *p, int n, int rank) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = rank * 1000 + i;
}
__global__ void fill_d(double *p, int n, int rank, int nranks) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = (double)((rank + i) % nranks) + 0.5 * rank;
}
// counts the elements that differ from what the sum over ranks must be
__global__ void verify(const int *p, int n, int nranks, int *bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  long long want = 1000LL * nranks * (nranks - 1) / 2 + (long long)nranks * i;
  if (i < n && p[i] != want) atomicAdd(bad, 1);
}

int main(int argc, char **argv) {
  const char *lr = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  int ndev = 0;
  CHECK(cudaGetDeviceCount(&ndev));
  int dev = (lr ? atoi(lr) : 0) % ndev;
  CHECK(cudaSetDevice(dev));
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const int N = 10007, T = 128, B = (N + T - 1) / T;
  int fails = 0;

  // device to device: integers summed
  int *d_in, *d_out, *d_bad;
  CHECK(cudaMalloc(&d_in, N * sizeof(int)));
  CHECK(cudaMalloc(&d_out, N * sizeof(int)));
  CHECK(cudaMalloc(&d_bad, sizeof(int)));
  CHECK(cudaMemset(d_bad, 0, sizeof(int)));
  fill<<<B, T>>>(d_in, N, rank);
  CHECK(cudaDeviceSynchronize());
  MPI_Allreduce(d_in, d_out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  verify<<<B, T>>>(d_out, N, P, d_bad);
  int bad = 0;
  CHECK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
  if (bad) printf("rank %d: %d sums wrong\n", rank, bad), fails++;

  // in place, doubles maxed
  double *d_x;
  CHECK(cudaMalloc(&d_x, N * sizeof(double)));
  fill_d<<<B, T>>>(d_x, N, rank, P);
  CHECK(cudaDeviceSynchronize());
  MPI_Allreduce(MPI_IN_PLACE, d_x, N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  std::vector<double> hx(N);
  CHECK(cudaMemcpy(hx.data(), d_x, N * sizeof(double), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) {
    double want = -1;
    for (int r = 0; r < P; r++) want = std::max(want, (double)((r + i) % P) + 0.5 * r);
    if (hx[i] != want) {
      printf("rank %d: max[%d] = %g, want %g\n", rank, i, hx[i], want);
      fails++;
      break;
    }
  }

  // broadcast from the last rank's device memory, gathered into device memory
  int *d_b, *d_all;
  CHECK(cudaMalloc(&d_b, N * sizeof(int)));
  CHECK(cudaMalloc(&d_all, (size_t)P * sizeof(int)));
  if (rank == P - 1) fill<<<B, T>>>(d_b, N, 77);
  CHECK(cudaDeviceSynchronize());
  MPI_Bcast(d_b, N, MPI_INT, P - 1, MPI_COMM_WORLD);
  MPI_Allgather(&d_b[rank % N], 1, MPI_INT, d_all, 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> hb(N), ha(P);
  CHECK(cudaMemcpy(hb.data(), d_b, N * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ha.data(), d_all, P * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    if (hb[i] != 77000 + i) {
      printf("rank %d: broadcast[%d] = %d\n", rank, i, hb[i]);
      fails++;
      break;
    }
  for (int r = 0; r < P; r++)
    if (ha[r] != 77000 + r % N) printf("rank %d: gathered[%d] = %d\n", rank, r, ha[r]), fails++;

  // managed and page-locked buffers
  long long *m, *h;
  CHECK(cudaMallocManaged(&m, sizeof *m));
  CHECK(cudaMallocHost(&h, sizeof *h));
  *m = rank + 1;
  MPI_Allreduce(m, h, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (*h != (long long)P * (P + 1) / 2) printf("rank %d: managed sum %lld\n", rank, *h), fails++;

  int all_fails = 0;
  MPI_Allreduce(&fails, &all_fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (!rank) printf("%d ranks on %d devices: %s\n", P, ndev, all_fails ? "FAIL" : "PASS");
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_x));
  MPI_Finalize();
  return all_fails != 0;
}
