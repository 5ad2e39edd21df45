/* cub/device/device_merge_sort.cuh (cucc): Debian's CUB header, unmodified,
 * with cucc's dispatch for the algorithms it calls (cub/device/cucc/
 * merge_sort.cuh: they run on Thrust's CPU device system,
 * cub/device/cucc_device.cuh). */
#pragma once
#include_next <cub/device/device_merge_sort.cuh>
#include <cub/device/cucc/merge_sort.cuh>
