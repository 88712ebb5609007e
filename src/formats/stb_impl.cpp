// The one translation unit that compiles stb_image and stb_image_write (Debian's libstb-dev headers).
// Compiling them here, rather than linking libstb.so, lets us choose their configuration: no stdio in the decoder (we
// read and write files ourselves, for precise errors and atomic output) and user-readable failure reasons.

#define STBI_NO_STDIO
// STBI_WRITE_NO_STDIO is not set: stb_image_write 1.16 compiles its HDR encoder only with stdio enabled.
#define STBI_FAILURE_USERMSG
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image.h>
#include <stb_image_write.h>
