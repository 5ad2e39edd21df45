/* cub/device/device_partition.cuh (cucc): Debian's CUB header, unmodified, with
 * cucc's dispatch for the algorithms it calls (cub/device/cucc/select.cuh:
 * they run on Thrust's CPU device system, cub/device/cucc_device.cuh). */
#pragma once
#include_next <cub/device/device_partition.cuh>
#include <cub/device/cucc/select.cuh>
