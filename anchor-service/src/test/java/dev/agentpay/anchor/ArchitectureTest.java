package dev.agentpay.anchor;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.ArchTests;
import dev.agentpay.localstack.testing.ArchitectureRules;

/** The platform's layer rules (root README, "Layout and conventions") on this service's main classes. */
@AnalyzeClasses(packages = "dev.agentpay.anchor", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchTests RULES = ArchTests.in(ArchitectureRules.class);
}
