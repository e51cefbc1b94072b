// Fixture unit 4 (DWARF 4, C++): a namespace, a class method and an inline member.
#include "demo.h"

namespace demo {
namespace geometry {

class Rectangle {
public:
    Rectangle(int width, int height) : width_(width), height_(height) {}
    __attribute__((noinline)) int area() const;
    __attribute__((always_inline)) int perimeter() const { return 2 * (width_ + height_); }

private:
    int width_;
    int height_;
};

int Rectangle::area() const {
    return width_ * height_ + perimeter();
}

__attribute__((noinline)) int scaled_area(const Rectangle &shape, int factor) {
    return shape.area() * factor;
}

}  // namespace geometry
}  // namespace demo

extern "C" int demo_cpp_calls(int seed) {
    demo::geometry::Rectangle shape(seed, seed + 2);
    return demo::geometry::scaled_area(shape, 3);
}
