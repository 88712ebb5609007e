// Using libgpurotate from C++: read an image, rotate it 90 degrees clockwise then mirror it, write it.
// The README quotes this file; it is built with the project, so the example cannot rot.
//
//   build/rotate_with_library samples/astronaut.png /tmp/astronaut-transposed.png

#include <gpurotate/gpurotate.hpp>

#include <iostream>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: rotate_with_library INPUT OUTPUT\n";
        return 2;
    }
    try {
        const gpurotate::Image input = gpurotate::read_image(argv[1]);
        // Any sequence of operations composes into one element of D4: rot90 then flip-h is a transpose.
        const gpurotate::Orientation element = gpurotate::then(gpurotate::Orientation::rot90, gpurotate::Orientation::flip_h);
        // Backend::automatic runs on the GPU when one is present and on the CPU otherwise.
        const gpurotate::Image output = gpurotate::transform(input, element, gpurotate::Backend::automatic);
        gpurotate::write_image(argv[2], output.view(), {/*quality=*/95, /*overwrite=*/true});
        std::cout << "wrote " << argv[2] << ": " << gpurotate::name(element) << " of a " << input.width() << "x"
                  << input.height() << " image\n";
        return 0;
    } catch (const gpurotate::Error& e) {
        std::cerr << "error: " << e.what() << "\n";
        return static_cast<int>(e.code());
    }
}
