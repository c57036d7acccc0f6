@WeakInjected var coordinator: CheckoutCoordinator?
