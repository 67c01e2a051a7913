#pragma once

void scaleOnDevice(float *Data, int N, float Factor);
