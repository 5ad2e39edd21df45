/* grid_sync.c: the runtime's grid barrier (cu_grid_sync, what grid.sync()
 * becomes) under cudaLaunchCooperativeKernel, tested on the runtime alone:
 * a block function written by hand, as generated code would be, registered
 * like a compiled kernel. Each block writes its slot, waits for the grid,
 * then checks every other block's slot, several rounds in a row; a grid
 * larger than the device can hold at once is refused with CUDA's error. */
#include <stdio.h>
#include <stdlib.h>
#include "cuda_runtime_api.h"
#include "cucc_rt.h"

enum { ROUNDS = 5 };
static int *slots, *errors;

static void block(const cu_block *B, const char *params) {
  (void)params;
  unsigned nb = B->gridDim.x, me = B->blockIdx.x;
  for (int r = 0; r < ROUNDS; r++) {
    slots[me] = r * 1000 + (int)me;
    cu_grid_sync(B);
    for (unsigned o = 0; o < nb; o++)
      if (slots[o] != r * 1000 + (int)o) errors[me]++;
    cu_grid_sync(B);   /* nobody writes the next round before all have read */
  }
}

static const unsigned no_params[1] = {0};
static const cu_kernel kern = {.name = "grid_rounds", .pretty = "grid_rounds()", .fn = block,
                               .param_off = no_params, .param_size = no_params, .param_align = 8, .nregs = 32,
                               .file = __FILE__, .line = __LINE__, .barriers = 1};
static const cu_kernel *const kerns[] = {&kern};
static void stub(void) {}

int main(void) {
  cu_register_kernels(kerns, 1);
  cu_register_stub((const void *)stub, "grid_rounds");
  int per_sm = 0, sms = 0, coop = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)stub, 64, 0) ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) ||
      cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0)) {
    printf("FAIL: queries\n");
    return 1;
  }
  unsigned most = (unsigned)(per_sm * sms);
  slots = calloc(most + 1, sizeof *slots);
  errors = calloc(most + 1, sizeof *errors);
  dim3 b = {64, 1, 1};
  int bad = !coop;
  unsigned sizes[] = {1, 3, most / 2, most};
  for (int i = 0; i < 4; i++) {
    dim3 g = {sizes[i], 1, 1};
    cudaError_t e = cudaLaunchCooperativeKernel((const void *)stub, g, b, NULL, 0, 0);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    int errs = 0;
    for (unsigned o = 0; o < sizes[i]; o++) errs += errors[o];
    if (e || errs) {
      printf("grid of %u: %s, %d wrong reads\n", sizes[i], cudaGetErrorName(e), errs);
      bad++;
    }
  }
  dim3 g = {most + 1, 1, 1};
  cudaError_t e = cudaLaunchCooperativeKernel((const void *)stub, g, b, NULL, 0, 0);
  if (e != cudaErrorCooperativeLaunchTooLarge) {
    printf("grid of %u: %s, want cudaErrorCooperativeLaunchTooLarge\n", most + 1, cudaGetErrorName(e));
    bad++;
  }
  printf("%s (%u blocks at most)\n", bad ? "FAIL" : "PASS", most);
  return bad != 0;
}
