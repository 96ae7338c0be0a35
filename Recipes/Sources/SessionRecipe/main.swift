import Assemblies

let shop = ShopAssembly()

shop.signIn(as: "ada")
shop.cart.add("tea")
shop.cart.add("biscuits")  // the same cart: one per session
print("\(shop.cart.account.name) has \(shop.cart.items.count) items")

shop.signIn(as: "grace")  // the session's instances are dropped and disposed of
print("\(shop.cart.account.name) has \(shop.cart.items.count) items")
