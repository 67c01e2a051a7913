// Launch geometry for scale.cu.
constexpr int kThreads = 256;
constexpr float kFactor = 2.0f;
