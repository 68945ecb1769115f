// iOS only (SwiftUI): not part of the Linux build of IssuerAppExampleExtensions.
import ProvisioCore
import ProvisioKit
import SwiftUI
import UIKit

/// The cardholder's cards, each with "Add to Apple Wallet" when `WalletLibrary.addDecision` allows
/// it, or the reason it is hidden.
struct CardListView: View {
    let model: WalletCardsModel
    let configurationWarning: String?
    @Environment(\.scenePhase) private var scenePhase

    var body: some View {
        NavigationStack {
            content
                .navigationTitle("Your cards")
                .toolbar {
                    ToolbarItem(placement: .topBarTrailing) {
                        Button("Sign out") { model.signOut() }
                    }
                }
        }
        .task { await model.load() }
        // Wallet changes (a pass added, activated, suspended, removed; the Watch's too) re-decide
        // every button; the task ends with the view.
        .task { await model.observeWallet() }
        // Wallet's verification link (the pass's appLaunchURL) for the yellow path.
        .onOpenURL { url in
            Task { await model.handleOpenURL(url) }
        }
        .onChange(of: scenePhase) { _, phase in
            if phase == .active { model.refreshDecisions() }
        }
        .alert(
            model.notice?.title ?? "", isPresented: noticeShown, presenting: model.notice,
            actions: { _ in Button("OK") {} }, message: { notice in Text(notice.message) })
    }

    private var noticeShown: Binding<Bool> {
        Binding(get: { model.notice != nil }, set: { if !$0 { model.notice = nil } })
    }

    @ViewBuilder private var content: some View {
        switch model.phase {
        case .idle, .loading:
            ProgressView("Loading your cards…")
        case .failed(let message):
            ContentUnavailableView {
                Label("Cards unavailable", systemImage: "creditcard")
            } description: {
                Text(message)
            } actions: {
                Button("Try again") { Task { await model.load() } }
            }
        case .ready:
            List {
                ForEach(model.rows) { row in
                    CardRowView(model: model, row: row)
                }
                if let configurationWarning {
                    Section("Wallet extensions") {
                        Text(configurationWarning).font(.footnote).foregroundStyle(.secondary)
                    }
                }
            }
        }
    }
}

/// One card: art, name, last 4, the Add button or the reason it is hidden.
struct CardRowView: View {
    let model: WalletCardsModel
    let row: WalletCardsModel.Row

    var body: some View {
        VStack(alignment: .leading, spacing: 10) {
            HStack(spacing: 12) {
                AsyncImage(url: row.artURL) { image in
                    image.resizable().aspectRatio(1536.0 / 969.0, contentMode: .fit)
                } placeholder: {
                    RoundedRectangle(cornerRadius: 6).fill(.quaternary).aspectRatio(1536.0 / 969.0, contentMode: .fit)
                }
                .frame(width: 72)
                VStack(alignment: .leading) {
                    Text(row.card.title).font(.headline)
                    Text("•••• \(row.card.last4)").font(.subheadline).foregroundStyle(.secondary)
                }
            }
            if row.showsAddButton {
                AddToAppleWalletButton {
                    guard let presenter = UIApplication.shared.topViewController else { return }
                    Task { await model.add(row, presentingFrom: presenter) }
                }
                .frame(height: 48)
                .disabled(model.isBusy)
            }
            if let note = row.walletNote {
                Text(note).font(.footnote).foregroundStyle(.secondary)
            }
        }
        .padding(.vertical, 4)
    }
}
