#include "compiler/frontend/model_builder/cnn_layers.h"

namespace polyarch::frontend {

namespace {

// Conv2dAttrs or PoolAttrs with the input extent of an NCHW tensor of shape `in`.
template <typename Attrs>
Attrs with_input(const Shape& in) {
  Attrs attrs;
  attrs.n = in[0];
  attrs.c = in[1];
  attrs.h = in[2];
  attrs.w = in[3];
  return attrs;
}

ir::NodeId add_pool(ModelGraph& graph, const std::string& name, ir::NodeId input,
                    ir::PoolAttrs attrs) {
  const Shape out = {attrs.n, attrs.c, attrs.out_h(), attrs.out_w()};
  return graph.add(name, attrs, {input}, out);
}

}  // namespace

ir::NodeId image_input(ModelGraph& graph, int64_t batch, int64_t image) {
  return graph.input("input", {batch, 3, image, image});
}

ir::NodeId conv(ModelGraph& graph, const std::string& name, ir::NodeId input,
                const ConvShape& shape) {
  auto attrs = with_input<ir::Conv2dAttrs>(graph.shape(input));
  attrs.k = shape.out_channels;
  attrs.r = shape.kernel;
  attrs.s = shape.kernel;
  attrs.stride_h = shape.stride;
  attrs.stride_w = shape.stride;
  attrs.pad_h = shape.pad;
  attrs.pad_w = shape.pad;
  attrs.groups = shape.groups;
  attrs.bias = true;
  const ir::NodeId filters =
      graph.weight(name + ".w", {attrs.k, attrs.c / attrs.groups, attrs.r, attrs.s});
  const ir::NodeId bias = graph.weight(name + ".b", {attrs.k});
  return graph.add(name, attrs, {input, filters, bias},
                   {attrs.n, attrs.k, attrs.out_h(), attrs.out_w()});
}

ir::NodeId relu(ModelGraph& graph, const std::string& name, ir::NodeId input) {
  return elementwise(graph, name, "relu", {input});
}

ir::NodeId pool(ModelGraph& graph, const std::string& name, ir::NodeId input, ir::PoolKind kind,
                int64_t window, int64_t stride, int64_t pad) {
  auto attrs = with_input<ir::PoolAttrs>(graph.shape(input));
  attrs.r = window;
  attrs.s = window;
  attrs.stride = stride;
  attrs.pad = pad;
  attrs.kind = kind;
  return add_pool(graph, name, input, attrs);
}

ir::NodeId classifier_head(ModelGraph& graph, ir::NodeId input, int64_t classes) {
  // The whole plane is the window, as lowering gives ONNX GlobalAveragePool.
  auto global = with_input<ir::PoolAttrs>(graph.shape(input));
  global.r = global.h;
  global.s = global.w;
  global.kind = ir::PoolKind::kGlobal;
  const ir::NodeId pooled = add_pool(graph, "avgpool", input, global);
  return linear(graph, "fc", flatten(graph, "flatten", pooled), classes, true);
}

}  // namespace polyarch::frontend
