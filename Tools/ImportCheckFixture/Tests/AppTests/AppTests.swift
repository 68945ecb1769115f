import Testing

@testable import App

@Test func makesAThing() {
    _ = makeThing()
}
