//! The `math` pack as a plugin: the root module exporting
//! [`isu_packs::math::MATH`], where its functions are written.

isu_plugin_api::export_pack!(isu_plugin_api::pack::TablePack, isu_packs::math::MATH);
