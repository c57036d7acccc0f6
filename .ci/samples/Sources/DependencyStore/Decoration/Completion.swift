final class Child { weak var parent: Parent? }
final class Parent { let child: Child; init(child: Child) { self.child = child } }
