/* cub/device/device_select.cuh (cucc): Debian's CUB header, unmodified,
 * with cucc's dispatch for the algorithms it calls (cub/device/cucc/
 * select.cuh and unique_by_key.cuh: they run on Thrust's CPU device
 * system, cub/device/cucc_device.cuh). */
#pragma once
#include_next <cub/device/device_select.cuh>
#include <cub/device/cucc/select.cuh>
#include <cub/device/cucc/unique_by_key.cuh>
