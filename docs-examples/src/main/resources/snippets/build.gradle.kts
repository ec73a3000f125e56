// An application's Gradle build with txinbox, as README.md shows it; DocsSnippetsTest checks its coordinates.
plugins {
    war
}

repositories {
    mavenCentral()
}

dependencies {
    // tag::dependencies[]
    implementation(platform("io.github.txinbox:inbox-bom:0.1.0-SNAPSHOT"))
    implementation("io.github.txinbox:inbox-cdi")
    implementation("io.github.txinbox:inbox-ejb") // InboxPurger, for cleanup
    // end::dependencies[]
    implementation("io.github.txinbox:inbox-http") // @Idempotent, for Jakarta REST
    compileOnly("jakarta.platform:jakarta.jakartaee-api:10.0.0")
}
